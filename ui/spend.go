package ui

import (
	"context"
	"easel/internal/catalogue"
	"time"

	"easel/internal/spend"
	"easel/ui/dialogs"

	"fyne.io/fyne/v2/dialog"
)

// refreshSpend says in the status bar what the connected profile spent
// today, its daily cap and, where its service reports one, its balance.
// The ledger and the service are asked off the UI goroutine; askService
// asks the service again (after a job, or on connecting) rather than
// showing the balance it last reported. An answer for a profile no longer
// connected is dropped.
func (a *App) refreshSpend(askService bool) {
	lib := a.lib
	p := a.session.Current()
	if lib == nil || p.ID == "" {
		a.statusBar.ShowSpend("")
		return
	}
	var asker spend.Asker
	if c := a.session.Client(); askService && c != nil {
		asker = c
	}
	a.spendWork.Add(1)
	go func() {
		defer a.spendWork.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		now := time.Now()
		b, ok, _ := spend.Balance(ctx, lib, p.ID, asker, now)
		s, err := spend.Summarise(ctx, lib, p, b, ok, now)
		a.bridge.Do(func() {
			if err != nil || a.session.Current().ID != p.ID {
				return
			}
			a.statusBar.ShowSpend(s.String())
		})
	}()
}

// showSpend opens the spend view (the status bar's spend, View ▸ Spend…).
func (a *App) showSpend() {
	if a.lib == nil {
		dialog.ShowInformation(catalogue.T("No spend to show"), catalogue.T("The gallery could not be opened, and the ledger is kept with it."), a.win)
		return
	}
	a.spendView = dialogs.ShowSpend(a)
}

// SpendChanged implements room.Host: a chat reply was written in the
// ledger.
func (a *App) SpendChanged() { a.refreshSpend(true) }
