package ui

import (
	"context"
	"time"

	"fyne.io/fyne/v2/dialog"

	"easel/internal/catalogue"
	"easel/internal/spend"
	"easel/ui/chrome"
	"easel/ui/dialogs"
)

// statusLine keeps the status bar current (the profile and group
// pickers, the service's address, the spend and the balance) and does
// what its controls ask: switch profile or group, open the spend view.
type statusLine struct {
	s *services
	// host is the window as the spend view sees it.
	host dialogs.Host
	bar  *chrome.StatusBar
	// view is the spend view last opened, for tests.
	view *dialogs.SpendView
}

func newStatusLine(s *services, h dialogs.Host, settings func()) *statusLine {
	l := &statusLine{s: s, host: h}
	l.bar = chrome.NewStatusBar(l.pickProfile, l.pickGroup, settings, l.showSpend)
	return l
}

// refresh shows the profiles, the one in use, its state and its groups.
func (l *statusLine) refresh() {
	var names []string
	for _, p := range l.s.session.Profiles() {
		names = append(names, p.Name)
	}
	l.bar.Show(names, l.s.session.Current().Name, l.s.session.StatusText())
	l.bar.ShowGroups(groupLabels(l.s.session.Current()))
}

func (l *statusLine) pickProfile(name string) {
	s := l.s.session
	if p, ok := s.Find(name); ok && (p.ID != s.Current().ID || s.Client() == nil) {
		s.Activate(p)
	}
}

func (l *statusLine) pickGroup(label string) {
	if label == ownKeyLabel() {
		label = ""
	}
	l.s.session.UseGroup(label)
}

// refreshSpend reads today's spend and, when askService, the balance
// off the UI goroutine, and shows them.
func (l *statusLine) refreshSpend(askService bool) {
	lib, session := l.s.lib, l.s.session
	p := session.Current()
	if lib == nil || p.ID == "" {
		l.bar.ShowSpend("", false)
		return
	}
	var asker spend.Asker
	if c := session.Client(); askService && c != nil {
		asker = c
	}
	l.s.work.Go(func(window context.Context) {
		ctx, cancel := context.WithTimeout(window, 30*time.Second)
		defer cancel()
		now := time.Now()
		b, _ := spend.Balance(ctx, lib.Ledger(), p, asker, now)
		s, err := spend.Summarise(ctx, lib.Ledger(), p, b, now)
		l.s.bridge.Do(func() {
			if err != nil || session.Current().ID != p.ID {
				return
			}
			l.bar.ShowSpend(s.String(), s.OverCap())
		})
	})
}

func (l *statusLine) showSpend() {
	if l.s.lib == nil {
		dialog.ShowInformation(catalogue.T("No spend to show"), catalogue.T("The gallery could not be opened, and the ledger is kept with it."), l.s.win)
		return
	}
	l.view = dialogs.ShowSpend(l.host)
	l.view.Corrected = func() { l.refreshSpend(false) }
}
