package dialogs

import (
	"context"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/work"
	"easel/ui/kit"
)

// Settings is the Settings dialog: the profiles on the left, the chosen
// one's form on the right, with Test connection, Save, Use and Delete.
type Settings struct {
	host  Host
	items []config.Profile
	list  *widget.List
	// Form is the shown profile's form.
	Form *ProfileForm
	// Learnt is what Easel learnt of the shown profile's service.
	Learnt *Learnt
	pane   *fyne.Container
	// learnt holds what Easel learnt of the shown profile's service, on
	// its own tab beside the profile's form.
	learnt *fyne.Container
	// prices holds the shown profile's prices and budget.
	prices *fyne.Container
	// Tabs are the profile's form and what was learnt of its service.
	Tabs *container.AppTabs
	// Sections are the profiles and the app's preferences.
	Sections *container.AppTabs
	// noProfiles stands in the empty list.
	noProfiles *widget.Label
	// testRow holds the shown form's Test connection and its result, kept
	// in sight below the scrolling form.
	testRow *fyne.Container
	save    *widget.Button
	// Use saves the shown profile and connects it.
	Use *widget.Button
	// Delete deletes the shown profile, after asking.
	Delete *widget.Button
	// Language picks the language Easel speaks from its next start.
	Language *widget.Select
	// Theme picks light, dark or the system's, at once.
	Theme *widget.Select
	// DriftLimit is the share a thread's turn may change outside the
	// marks before it is flagged.
	DriftLimit *widget.Select
	dlg        dialog.Dialog
}

// ShowSettings opens Settings on the connected profile; closed runs when
// it closes.
func ShowSettings(h Host, closed func()) *Settings {
	s := &Settings{host: h}
	s.pane = container.NewStack()
	s.list = widget.NewList(
		func() int { return len(s.items) },
		func() fyne.CanvasObject { return widget.NewLabel(catalogue.T("profile name")) },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			p := s.items[i]
			text := p.Name
			if p.ID == "" {
				text = catalogue.T("New profile")
			}
			if p.ReadOnly {
				text += " (read-only)"
			}
			if p.ID == h.Session().Current().ID && p.ID != "" {
				text += "  ●"
			}
			o.(*widget.Label).SetText(text)
		})
	s.list.OnSelected = func(i widget.ListItemID) { s.open(s.items[i]) }
	add := &widget.Button{Text: catalogue.T("Add"), Icon: theme.ContentAddIcon(), OnTapped: s.Add}
	s.Delete = &widget.Button{Text: catalogue.T("Delete"), Icon: theme.DeleteIcon(), OnTapped: s.remove}
	// With no profile yet (the demo service is not one), the list says
	// what the form beside it is for rather than standing empty.
	s.noProfiles = kit.HintLabel(catalogue.T("No profiles yet: fill in the form to add your service, then Save."))
	s.noProfiles.Wrapping = fyne.TextWrapWord
	s.noProfiles.Hide()
	left := container.NewBorder(nil, container.NewGridWithColumns(2, add, s.Delete), nil, nil,
		container.NewStack(s.list, container.NewVBox(s.noProfiles)))

	s.save = &widget.Button{Text: catalogue.T("Save"), Icon: theme.DocumentSaveIcon(), OnTapped: func() { s.Form.Save(s.saved) }}
	s.Use = &widget.Button{Text: catalogue.T("Use this profile"), Importance: widget.HighImportance, OnTapped: s.useProfile}
	closeButton := &widget.Button{Text: catalogue.T("Close"), OnTapped: func() { s.Form.ConfirmDiscard(s.dlg.Hide) }}
	actions := container.NewHBox(kit.Spacer(), closeButton, s.save, s.Use)

	s.testRow = container.NewStack()
	s.learnt = container.NewStack()
	s.prices = container.NewStack()
	s.Tabs = container.NewAppTabs(
		container.NewTabItem(catalogue.T("Profile"), container.NewVScroll(s.pane)),
		container.NewTabItem(catalogue.T("Prices and budget"), container.NewVScroll(s.prices)),
		container.NewTabItem(catalogue.T("What this service does"), container.NewVScroll(s.learnt)))
	split := container.NewHSplit(left, container.NewBorder(nil, container.NewVBox(s.testRow, actions), nil, nil, s.Tabs))
	split.Offset = 0.28
	// The preferences are the app's, not a profile's: a tab of their own
	// beside the profiles, without the profile list and its buttons.
	closePrefs := &widget.Button{Text: catalogue.T("Close"), OnTapped: func() { s.Form.ConfirmDiscard(s.dlg.Hide) }}
	prefs := container.NewBorder(nil, container.NewHBox(kit.Spacer(), closePrefs), nil, nil,
		container.NewVScroll(container.NewPadded(container.NewVBox(s.languagePicker(), s.themePicker(), s.driftPicker(), exportFolderPicker(h)))))
	s.Sections = container.NewAppTabs(
		container.NewTabItemWithIcon(catalogue.T("Profiles"), theme.AccountIcon(), split),
		container.NewTabItemWithIcon(catalogue.T("Preferences"), theme.SettingsIcon(), prefs))
	s.dlg = dialog.NewCustomWithoutButtons(catalogue.T("Settings"), s.Sections, h.Window())
	// Its Close buttons sit inside the tabs, where the window's dialog
	// keys do not look: Esc is said here.
	kit.SetEscape(s.Sections, func() { s.Form.ConfirmDiscard(s.dlg.Hide) })
	s.dlg.SetOnClosed(func() {
		kit.ClearEscape(s.Sections)
		if closed != nil {
			closed()
		}
	})
	s.dlg.Resize(fyne.NewSize(920, 620))
	s.reload(h.Session().Current().ID)
	s.dlg.Show()
	return s
}

// languagePicker is the language Easel speaks: the system's, or one
// picked here, which applies from the next start (the window is built in
// one language).
func (s *Settings) languagePicker() fyne.CanvasObject {
	system := catalogue.T("As the system")
	names := []string{system}
	tags := map[string]string{system: ""}
	selected := system
	chosen := s.host.Session().File().Language
	for _, l := range catalogue.Languages() {
		names = append(names, l.Name)
		tags[l.Name] = l.Tag
		if l.Tag == chosen {
			selected = l.Name
		}
	}
	s.Language = widget.NewSelect(names, nil)
	s.Language.Selected = selected
	note := kit.HintLabel("")
	restart := &widget.Button{Text: catalogue.T("Restart now"), Icon: theme.ViewRefreshIcon()}
	restart.Hide()
	if r, ok := s.host.(Restarter); ok {
		restart.OnTapped = r.Restart
	}
	s.Language.OnChanged = func(name string) {
		s.host.Session().Prefer(func(f *config.File) { f.Language = tags[name] }, func() {
			note.SetText(catalogue.T("Easel speaks it from its next start."))
			if restart.OnTapped != nil {
				restart.Show()
			}
		})
	}
	return container.NewVBox(widget.NewLabelWithStyle(catalogue.T("Language"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), s.Language,
		container.NewBorder(nil, nil, nil, restart, note))
}

// driftPicker is how much of a picture a thread's turn may change
// outside the marks before Easel flags it, for the window and the
// command line alike.
func (s *Settings) driftPicker() fyne.CanvasObject {
	limits := []float64{0.02, 0.05, 0.10, 0.20, 0.30, 0.50}
	names := make([]string, len(limits))
	current := s.host.Session().File().TurnLimit()
	s.DriftLimit = widget.NewSelect(nil, nil)
	for i, l := range limits {
		names[i] = catalogue.F("%d %%", int(l*100+0.5))
		if l == current {
			s.DriftLimit.Selected = names[i]
		}
	}
	s.DriftLimit.Options = names
	s.DriftLimit.OnChanged = func(name string) {
		if i := slices.Index(names, name); i >= 0 {
			s.host.Session().Prefer(func(f *config.File) { f.DriftLimit = limits[i] }, nil)
		}
	}
	return container.NewVBox(kit.Heading(catalogue.T("Drift in a thread")),
		kit.HintLabel(catalogue.T("Flag a turn when the service changed more of the picture than this outside your marks (everywhere, without a mask):")),
		s.DriftLimit)
}

// Restarter is a host that can start Easel again, drafts kept: what a
// new language needs, as Fyne's words are chosen at start.
type Restarter interface{ Restart() }

// themePicker chooses light or dark, or the system's, applied at once.
func (s *Settings) themePicker() fyne.CanvasObject {
	names := []string{catalogue.T("As the system"), catalogue.T("Light"), catalogue.T("Dark")}
	values := map[string]string{names[0]: kit.ThemeSystem, names[1]: kit.ThemeLight, names[2]: kit.ThemeDark}
	prefs := fyne.CurrentApp().Preferences()
	s.Theme = widget.NewSelect(names, nil)
	for name, v := range values {
		if v == prefs.String(kit.PrefTheme) {
			s.Theme.Selected = name
		}
	}
	s.Theme.OnChanged = func(name string) {
		prefs.SetString(kit.PrefTheme, values[name])
		kit.ApplyTheme(fyne.CurrentApp(), values[name])
	}
	return container.NewVBox(kit.Heading(catalogue.T("Theme")), s.Theme)
}

// exportFolderPicker is the folder Export opens on: the last one
// exported to, unless one is set here.
func exportFolderPicker(h Host) fyne.CanvasObject {
	prefs := fyne.CurrentApp().Preferences()
	shown := widget.NewLabel("")
	shown.Truncation = fyne.TextTruncateEllipsis
	show := func() {
		if f := prefs.String(exportDefaultPref); f != "" {
			shown.SetText(f)
		} else {
			// The folder the first export goes to, as it is on this
			// machine: "Pictures" was said where there was none, and
			// the first export went to the home folder (#57).
			shown.SetText(catalogue.F("The last folder exported to; now %s", defaultFolder()))
		}
	}
	show()
	var reset *widget.Button
	choose := &widget.Button{Text: catalogue.T("Choose…"), Icon: theme.FolderOpenIcon(), OnTapped: func() {
		PickFolder(h, catalogue.T("Export folder"), catalogue.T("Use this folder"), prefs.String(exportDefaultPref), func(dir string) {
			prefs.SetString(exportDefaultPref, dir)
			show()
			reset.Show()
		})
	}}
	reset = &widget.Button{Text: catalogue.T("Use the last folder"), Importance: widget.LowImportance, OnTapped: func() {
		prefs.SetString(exportDefaultPref, "")
		show()
		reset.Hide()
	}}
	reset.Hidden = prefs.String(exportDefaultPref) == ""
	return container.NewVBox(kit.Heading(catalogue.T("Export folder")), container.NewBorder(nil, nil, nil, container.NewHBox(reset, choose), shown))
}

// Refresh lists the profiles again, keeping the shown one, after the
// profiles file changed.
func (s *Settings) Refresh() { s.list.Refresh() }

// reload lists the profiles again and selects the one with id (or the
// first).
func (s *Settings) reload(id string) {
	s.items = config.All(s.host.Session().File(), s.host.Session().Getenv)
	s.list.Refresh()
	s.noProfiles.Hidden = len(s.items) > 0
	s.noProfiles.Refresh()
	at := 0
	for i, p := range s.items {
		if p.ID == id {
			at = i
		}
	}
	if len(s.items) == 0 {
		s.Add()
		return
	}
	s.list.Select(at)
	s.open(s.items[at]) // Select does not fire when at is already selected
}

// open shows p's form.
func (s *Settings) open(p config.Profile) {
	s.Form = NewProfileForm(s.host, p, true)
	s.Learnt = newLearnt(s.host, p)
	s.pane.Objects = []fyne.CanvasObject{container.NewPadded(s.Form.form)}
	s.pane.Refresh()
	s.learnt.Objects = []fyne.CanvasObject{container.NewPadded(s.Learnt.Box)}
	s.learnt.Refresh()
	s.prices.Objects = []fyne.CanvasObject{container.NewPadded(s.Form.Prices.Box)}
	s.prices.Refresh()
	// The button keeps its height beside a result of several lines.
	s.testRow.Objects = []fyne.CanvasObject{kit.ButtonBeside(s.Form.Test, s.Form.Result)}
	s.testRow.Refresh()
	for _, b := range []*widget.Button{s.save, s.Delete} {
		if p.ReadOnly {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if p.ReadOnly {
		s.Form.ShowResult(catalogue.T("This profile comes from OPENAI_BASE_URL and OPENAI_API_KEY; change them in your shell."), widget.LowImportance)
	}
	if p.ID != "" && !p.ReadOnly {
		form := s.Form
		s.showKeyState(form, p)
	}
}

// showKeyState says whether the keyring holds a key for p, without
// showing it, read off the UI goroutine.
func (s *Settings) showKeyState(f *ProfileForm, p config.Profile) {
	work.Load(s.host.Work(), func(ctx context.Context) (string, error) {
		return keyPlaceholder(s.host.Session().Keys().State(ctx, p.ID)), nil
	}, func(state string, _ error) {
		if s.Form == f && f.typedKey() == "" {
			f.Key.SetPlaceHolder(state)
		}
	})
}

// Add starts a new, unsaved profile.
func (s *Settings) Add() {
	s.list.UnselectAll()
	s.open(config.Profile{BaseURL: config.DefaultBaseURL})
	s.Delete.Disable()
	s.host.Window().Canvas().Focus(s.Form.Name)
}

// saved refreshes the list after a save and reconnects when the saved
// profile is the connected one, so new settings apply at once.
func (s *Settings) saved(p config.Profile) {
	s.reload(p.ID)
	if p.ID == s.host.Session().Current().ID {
		s.host.Session().Activate(p)
	}
}

func (s *Settings) useProfile() {
	if s.Form.orig.ReadOnly {
		s.host.Session().Activate(s.Form.orig)
		s.dlg.Hide()
		return
	}
	s.Form.Save(func(p config.Profile) {
		s.host.Session().Activate(p)
		s.dlg.Hide()
	})
}

// remove deletes the shown profile and its key, after asking. A key the
// keyring would not remove is reported: the user should know it is
// still there.
func (s *Settings) remove() {
	p := s.Form.orig
	if p.ID == "" || p.ReadOnly {
		return
	}
	d := dialog.NewConfirm(catalogue.T("Delete profile?"), catalogue.F("Delete %q and remove its key from the system keyring? Images made with it stay in the Gallery.", p.Name),
		func(ok bool) {
			if !ok {
				return
			}
			s.host.Session().DeleteProfile(p, func(keyErr error) {
				s.reload("")
				if keyErr != nil {
					dialog.ShowError(fmt.Errorf(catalogue.T("the profile %q was deleted, but its key could not be removed from the system keyring (%s): remove the entry of service \"Easel\" with your keyring's own tool"), p.Name, ShortCause(keyErr)), s.host.Window())
				}
			})
		}, s.host.Window())
	d.SetConfirmText(catalogue.T("Delete profile"))
	d.SetDismissText(catalogue.T("Keep it"))
	d.SetConfirmImportance(widget.DangerImportance)
	d.Show()
}
