package chrome

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
)

// StatusBar is the strip along the bottom of the window: which profile
// the window talks to, a way to switch, and Settings.
type StatusBar struct {
	// Profile is the profile picker.
	Profile *widget.Select
	// Group picks the gateway account group whose key the profile uses;
	// shown only for a profile with keys for several groups.
	Group      *widget.Select
	groupBox   *fyne.Container
	groupQuiet bool
	settings   *widget.Button
	state      *widget.Label
	// Spend says today's spend, the daily cap and the balance; it opens
	// the spend view.
	Spend *widget.Button
	// Box is the bar, for the window to lay out below the tabs.
	Box fyne.CanvasObject
	// quiet is set while Show changes the selection, so that is not
	// taken for the user's choice.
	quiet  bool
	picked func(name string)
}

// NewStatusBar makes the bar; picked runs when the user picks a profile
// by name, group when they pick one of its groups, settings when they
// press Settings….
func NewStatusBar(picked func(name string), group func(name string), settings func(), spend func()) *StatusBar {
	s := &StatusBar{picked: picked}
	s.Group = widget.NewSelect(nil, func(g string) {
		if !s.groupQuiet && group != nil {
			group(g)
		}
	})
	s.groupBox = container.NewHBox(widget.NewLabel(catalogue.T("Group")), s.Group)
	s.groupBox.Hide()
	s.Profile = widget.NewSelect(nil, s.onPicked)
	s.Profile.PlaceHolder = catalogue.T("No profile")
	s.settings = &widget.Button{Text: catalogue.T("Settings…"), Icon: theme.SettingsIcon(), Importance: widget.LowImportance, OnTapped: settings}
	s.state = widget.NewLabel("")
	s.state.Importance = widget.LowImportance
	s.state.Truncation = fyne.TextTruncateEllipsis
	// The picker keeps a readable width whatever the names' lengths.
	picker := container.NewGridWrap(fyne.NewSize(240, s.Profile.MinSize().Height), s.Profile)
	s.Spend = &widget.Button{Icon: theme.HistoryIcon(), Importance: widget.LowImportance, OnTapped: spend}
	s.Spend.Hide()
	s.Box = container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel(catalogue.T("Profile")), picker, s.groupBox, s.settings), s.Spend, s.state)
	return s
}

// Show lists the profiles by name, selects the current one ("" for
// none) and shows state beside them.
func (s *StatusBar) Show(names []string, current, state string) {
	s.quiet = true
	s.Profile.SetOptions(names)
	if current != "" {
		s.Profile.SetSelected(current)
	} else {
		s.Profile.ClearSelected()
	}
	s.quiet = false
	s.state.SetText(state)
}

// ShowGroups lists the connected profile's groups and selects the one in
// use; fewer than two hides the picker.
func (s *StatusBar) ShowGroups(groups []string, using string) {
	if len(groups) < 2 {
		s.groupBox.Hide()
		return
	}
	s.groupQuiet = true
	s.Group.SetOptions(groups)
	s.Group.SetSelected(using)
	s.groupQuiet = false
	s.groupBox.Show()
}

func (s *StatusBar) onPicked(name string) {
	if !s.quiet && s.picked != nil {
		s.picked(name)
	}
}

// State is the text beside the picker: the service's address, or why
// nothing is connected.
func (s *StatusBar) State() string { return s.state.Text }

// ShowSpend says today's spend, the cap and the balance at the bar's
// end, drawn as a warning when the spend is over the cap; "" hides it.
func (s *StatusBar) ShowSpend(text string, overCap bool) {
	s.Spend.Importance = widget.LowImportance
	if overCap {
		s.Spend.Importance = widget.WarningImportance
	}
	s.Spend.SetText(text)
	if text == "" {
		s.Spend.Hide()
	} else {
		s.Spend.Show()
	}
}
