package ui

import (
	"context"
	"time"

	"fyne.io/fyne/v2/dialog"

	"easel/internal/catalogue"
	"easel/internal/spend"
	"easel/ui/dialogs"
)

// statusActions are what the status bar's controls do and how it is kept
// current: the profile and group pickers, the spend and the balance.
type statusActions struct{ *App }

func (a statusActions) refreshStatusBar() {
	var names []string
	for _, p := range a.session.Profiles() {
		names = append(names, p.Name)
	}
	a.statusBar.Show(names, a.session.Current().Name, a.session.StatusText())
	a.statusBar.ShowGroups(groupLabels(a.session.Current()))
}

func (a statusActions) pickProfile(name string) {
	s := a.session
	if p, ok := s.Find(name); ok && (p.ID != s.Current().ID || s.Client() == nil) {
		s.Activate(p)
	}
}

func (a statusActions) pickGroup(label string) {
	if label == ownKeyLabel() {
		label = ""
	}
	a.session.UseGroup(label)
}
func (a statusActions) refreshSpend(askService bool) {
	lib := a.lib
	p := a.session.Current()
	if lib == nil || p.ID == "" {
		a.statusBar.ShowSpend("", false)
		return
	}
	var asker spend.Asker
	if c := a.session.Client(); askService && c != nil {
		asker = c
	}
	a.work.Go(func(window context.Context) {
		ctx, cancel := context.WithTimeout(window, 30*time.Second)
		defer cancel()
		now := time.Now()
		b, _ := spend.Balance(ctx, lib, p, asker, now)
		s, err := spend.Summarise(ctx, lib, p, b, now)
		a.bridge.Do(func() {
			if err != nil || a.session.Current().ID != p.ID {
				return
			}
			a.statusBar.ShowSpend(s.String(), s.OverCap())
		})
	})
}

func (a statusActions) showSpend() {
	if a.lib == nil {
		dialog.ShowInformation(catalogue.T("No spend to show"), catalogue.T("The gallery could not be opened, and the ledger is kept with it."), a.win)
		return
	}
	a.spendView = dialogs.ShowSpend(host{a.App})
	a.spendView.Corrected = func() { a.refreshSpend(false) }
}
