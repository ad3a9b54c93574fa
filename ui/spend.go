package ui

// SpendChanged implements chat.Host: a chat reply was written in the
// ledger.
func (a *host) SpendChanged() { a.spend.refreshSpend(true) }
