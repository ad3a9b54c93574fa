package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"easel/internal/catalogue"
	"easel/ui/chat"
	"easel/ui/dialogs"
	"easel/ui/edit"
	"easel/ui/gallery"
	"easel/ui/generate"
	"easel/ui/promptlib"
	"easel/ui/room"
	"easel/ui/widgets/promptentry"
)

// tabset is the window's four rooms in their tabs. A room's widgets are
// built the first time its tab is shown, so start-up pays only for the
// tab on screen (the one last shown); what is built is the tabset's to
// know, and its to walk.
type tabset struct {
	tabs  *container.AppTabs
	rooms []room.Room
	// built marks the tabs whose widgets exist.
	built []bool
	// prefs hold each room's draft, restored when it is built.
	prefs fyne.Preferences

	chat     *chat.Room
	generate *generate.Room
	edit     *edit.Room
	gallery  *gallery.Room
}

// ensureBuilt builds tab i's widgets the first time it is shown.
func (t *tabset) ensureBuilt(i int) {
	if i < 0 || t.built[i] {
		return
	}
	t.built[i] = true
	holder := t.tabs.Items[i].Content.(*fyne.Container)
	holder.Objects = []fyne.CanvasObject{t.rooms[i].Build()}
	if d, ok := t.rooms[i].(drafted); ok {
		d.RestoreDraft(t.prefs, draftKey(i))
	}
	holder.Refresh()
}

// drafted is a tab whose prompt and options are kept across a restart.
type drafted interface {
	SaveDraft(p fyne.Preferences, key string)
	RestoreDraft(p fyne.Preferences, key string)
}

// draftKey is the preference key of tab i's draft, by the tab's name so
// that a change of the tabs' order keeps each draft with its tab.
func draftKey(i int) string {
	return map[int]string{TabGenerate: "draft.generate", TabEdit: "draft.edit"}[i]
}

// builtGallery is the Gallery tab once built, nil before.
func (t *tabset) builtGallery() *gallery.Room {
	if len(t.built) > TabGallery && t.built[TabGallery] {
		return t.gallery
	}
	return nil
}

// prompt is tab's prompt (Edit's or Text to image's) and the way its
// status line offers an undo.
func (t *tabset) prompt(tab int) (*promptentry.Entry, func(text string, undo func())) {
	if tab == TabEdit {
		return t.edit.Prompt(), t.edit.SetStatusUndo
	}
	return t.generate.Prompt(), t.generate.SetStatusUndo
}

// CurrentTab is the index of the shown tab.
func (t *tabset) CurrentTab() int { return t.tabs.SelectedIndex() }

// primaryAction runs the shown tab's main action (Ctrl+Enter).
func (t *tabset) primaryAction() {
	if i := t.tabs.SelectedIndex(); i >= 0 && t.built[i] {
		t.rooms[i].PrimaryAction()
	}
}

// eachBuilt calls f with the index of every built room.
func (t *tabset) eachBuilt(f func(i int)) {
	for i := range t.rooms {
		if t.built != nil && t.built[i] {
			f(i)
		}
	}
}

// promptTargets are the tabs that take a prompt, for the prompt library:
// using an entry there shows the tab (show).
func (t *tabset) promptTargets(show func(tab int)) []promptlib.Target {
	t.ensureBuilt(TabGenerate)
	t.ensureBuilt(TabEdit)
	t.ensureBuilt(TabChat)
	return []promptlib.Target{
		{Name: catalogue.T("Text to image"), Get: func() string { return t.generate.Prompt().Text },
			Set: func(s string) { show(TabGenerate); t.generate.Prompt().SetText(s) }},
		{Name: catalogue.T("Edit"), Get: func() string { return t.edit.Prompt().Text },
			Set: func(s string) { show(TabEdit); t.edit.Prompt().SetText(s) }},
		{Name: catalogue.T("Chat"), Get: func() string { return t.chat.Composer().Text },
			Set: func(s string) { show(TabChat); t.chat.Composer().SetText(s) }},
	}
}

// showPromptLibrary opens the prompt library (Edit ▸ Prompt library…).
func (t *tabset) showPromptLibrary(h dialogs.LibraryHost, show func(tab int)) {
	promptlib.Show(h, t.promptTargets(show))
}

// keepPrompt offers the current tab's prompt to the prompt library (Edit
// ▸ Keep prompt in library…); from a tab without one, an empty entry.
func (t *tabset) keepPrompt(h dialogs.LibraryHost, show func(tab int)) {
	text, source := "", ""
	for _, target := range t.promptTargets(show) {
		if target.Name == tabTitles()[t.CurrentTab()] {
			text, source = target.Get(), target.Name
		}
	}
	promptlib.Keep(h, text, source, nil)
}
