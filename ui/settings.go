package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/config"
)

// settingsView is the Settings dialog: the profiles on the left, the
// chosen one's form on the right, with Test connection, Save, Use and
// Delete.
type settingsView struct {
	app   *App
	items []config.Profile
	list  *widget.List
	form  *profileForm
	pane  *fyne.Container
	// testRow holds the shown form's Test connection and its result, kept
	// in sight below the scrolling form.
	testRow *fyne.Container
	save    *widget.Button
	use     *widget.Button
	del     *widget.Button
	dlg     dialog.Dialog
}

// showSettings opens Settings on the connected profile.
func (a *App) showSettings() {
	s := &settingsView{app: a}
	s.pane = container.NewStack()
	s.list = widget.NewList(
		func() int { return len(s.items) },
		func() fyne.CanvasObject { return widget.NewLabel("profile name") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			p := s.items[i]
			text := p.Name
			if p.ID == "" {
				text = "New profile"
			}
			if p.ReadOnly {
				text += " (read-only)"
			}
			if p.ID == a.acct.current.ID && p.ID != "" {
				text += "  ●"
			}
			o.(*widget.Label).SetText(text)
		})
	s.list.OnSelected = func(i widget.ListItemID) { s.open(s.items[i]) }
	add := &widget.Button{Text: "Add", Icon: theme.ContentAddIcon(), OnTapped: s.add}
	s.del = &widget.Button{Text: "Delete", Icon: theme.DeleteIcon(), OnTapped: s.remove}
	left := container.NewBorder(nil, container.NewGridWithColumns(2, add, s.del), nil, nil, s.list)

	s.save = &widget.Button{Text: "Save", Icon: theme.DocumentSaveIcon(), OnTapped: func() { s.form.save(s.saved) }}
	s.use = &widget.Button{Text: "Use this profile", Importance: widget.HighImportance, OnTapped: s.useProfile}
	close := &widget.Button{Text: "Close", OnTapped: func() { s.dlg.Hide() }}
	actions := container.NewHBox(layoutSpacer(), close, s.save, s.use)

	s.testRow = container.NewStack()
	split := container.NewHSplit(left, container.NewBorder(nil, container.NewVBox(s.testRow, actions), nil, nil, container.NewVScroll(s.pane)))
	split.Offset = 0.28
	s.dlg = dialog.NewCustomWithoutButtons("Settings", split, a.win)
	s.dlg.SetOnClosed(func() { a.settings = nil })
	s.dlg.Resize(fyne.NewSize(920, 620))
	a.settings = s
	s.reload(a.acct.current.ID)
	s.dlg.Show()
}

// reload lists the profiles again and selects the one with id (or the
// first).
func (s *settingsView) reload(id string) {
	s.items = config.All(s.app.acct.file, s.app.getenv)
	s.list.Refresh()
	at := 0
	for i, p := range s.items {
		if p.ID == id {
			at = i
		}
	}
	if len(s.items) == 0 {
		s.add()
		return
	}
	s.list.Select(at)
	s.open(s.items[at]) // Select does not fire when at is already selected
}

// open shows p's form.
func (s *settingsView) open(p config.Profile) {
	s.form = newProfileForm(s.app, p, true)
	s.pane.Objects = []fyne.CanvasObject{container.NewPadded(s.form.form)}
	s.pane.Refresh()
	s.testRow.Objects = []fyne.CanvasObject{container.NewBorder(nil, nil, s.form.test, nil, s.form.result)}
	s.testRow.Refresh()
	for _, b := range []*widget.Button{s.save, s.del} {
		if p.ReadOnly {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if p.ReadOnly {
		s.form.showResult("This profile comes from OPENAI_BASE_URL and OPENAI_API_KEY; change them in your shell.", widget.LowImportance)
	}
	if p.ID != "" && !p.ReadOnly {
		go s.showKeyState(s.form, p)
	}
}

// showKeyState says whether the keyring holds a key for p, without
// showing it.
func (s *settingsView) showKeyState(f *profileForm, p config.Profile) {
	state := keyStateText(s.app, p)
	s.app.bridge.Do(func() {
		if s.form == f && f.typedKey() == "" {
			f.key.SetPlaceHolder(state)
		}
	})
}

func keyStateText(a *App, p config.Profile) string {
	if _, ok := a.acct.keys.SessionKey(p.ID); ok {
		return "Key kept for this session — type to replace it"
	}
	switch _, err := a.acct.keys.Get(context.Background(), p.ID); {
	case err == nil:
		return "Key saved in the keyring — type to replace it"
	case isNoKey(err):
		return "No key saved (fine for local servers)"
	default:
		return "The keyring is unavailable — a key typed here is kept for this session"
	}
}

// add starts a new, unsaved profile.
func (s *settingsView) add() {
	s.list.UnselectAll()
	s.open(config.Profile{BaseURL: config.DefaultBaseURL})
	s.del.Disable()
	s.app.win.Canvas().Focus(s.form.name)
}

// saved refreshes the list after a save and reconnects when the saved
// profile is the connected one, so new settings apply at once.
func (s *settingsView) saved(p config.Profile) {
	s.reload(p.ID)
	if p.ID == s.app.acct.current.ID {
		s.app.activate(p)
	}
}

func (s *settingsView) useProfile() {
	if s.form.orig.ReadOnly {
		s.app.activate(s.form.orig)
		s.dlg.Hide()
		return
	}
	s.form.save(func(p config.Profile) {
		s.app.activate(p)
		s.dlg.Hide()
	})
}

// remove deletes the shown profile and its key, after asking.
func (s *settingsView) remove() {
	p := s.form.orig
	if p.ID == "" || p.ReadOnly {
		return
	}
	dialog.ShowConfirm("Delete profile?", fmt.Sprintf("Delete %q and remove its key from the system keyring? Images made with it stay in the Gallery.", p.Name),
		func(ok bool) {
			if !ok {
				return
			}
			f, err := s.app.acct.store.Update(func(f *config.File) error { f.Remove(p.ID); return nil })
			if err != nil {
				dialog.ShowError(err, s.app.win)
				return
			}
			s.app.acct.file = f
			go func() { _ = s.app.acct.keys.Delete(context.Background(), p.ID) }()
			if s.app.acct.current.ID == p.ID {
				s.app.acct.current = config.Profile{}
				s.app.disconnect("The profile in use was deleted. Pick another below.")
			}
			s.app.statusBar.refresh()
			s.reload("")
		}, s.app.win)
}
