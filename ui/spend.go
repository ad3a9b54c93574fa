package ui

// refreshSpend says in the status bar what the connected profile spent
// today, its daily cap and, where its service reports one, its balance.
// The ledger and the service are asked off the UI goroutine; askService
// asks the service again (after a job, or on connecting) rather than
// showing the balance it last reported. An answer for a profile no longer
// connected is dropped.
// showSpend opens the spend view (the status bar's spend, View ▸ Spend…).
// SpendChanged implements chat.Host: a chat reply was written in the
// ledger.
func (a host) SpendChanged() { statusActions{a.App}.refreshSpend(true) }
