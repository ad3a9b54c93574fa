package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// statusBar is the strip along the bottom of the window: which profile
// the window talks to, a way to switch, and Settings.
type statusBar struct {
	app      *App
	profile  *widget.Select
	settings *widget.Button
	state    *widget.Label
	box      fyne.CanvasObject
	// quiet is set while refresh changes the selection, so that is not
	// taken for the user's choice.
	quiet bool
}

func newStatusBar(a *App) *statusBar {
	s := &statusBar{app: a}
	s.profile = widget.NewSelect(nil, s.picked)
	s.profile.PlaceHolder = "No profile"
	s.settings = &widget.Button{Text: "Settings…", Icon: theme.SettingsIcon(), Importance: widget.LowImportance, OnTapped: a.showSettings}
	s.state = widget.NewLabel("")
	s.state.Importance = widget.LowImportance
	s.state.Truncation = fyne.TextTruncateEllipsis
	// The picker keeps a readable width whatever the names' lengths.
	picker := container.NewGridWrap(fyne.NewSize(240, s.profile.MinSize().Height), s.profile)
	s.box = container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Profile"), picker, s.settings), nil, s.state)
	return s
}

// refresh lists the profiles and selects the current one.
func (s *statusBar) refresh() {
	if s == nil {
		return
	}
	var names []string
	for _, p := range s.app.profiles() {
		names = append(names, p.Name)
	}
	s.quiet = true
	s.profile.SetOptions(names)
	if cur := s.app.acct.current; cur.ID != "" {
		s.profile.SetSelected(cur.Name)
	} else {
		s.profile.ClearSelected()
	}
	s.quiet = false
	switch {
	case s.app.acct.client != nil:
		s.state.SetText(s.app.acct.current.BaseURL)
	default:
		s.state.SetText(s.app.serviceText())
	}
}

func (s *statusBar) picked(name string) {
	if s.quiet {
		return
	}
	if p, ok := s.app.findProfile(name); ok && (p.ID != s.app.acct.current.ID || s.app.acct.client == nil) {
		s.app.activate(p)
	}
}
