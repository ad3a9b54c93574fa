package ui

import "fyne.io/fyne/v2"

// Bridge is the single hop from worker goroutines back to Fyne's UI
// goroutine. Keeping every fyne.Do call here makes it easy to audit that no
// widget is touched from elsewhere, and lets tests swap the hop for a
// synchronous one.
type Bridge struct {
	do func(func())
}

// NewBridge returns the bridge used by the real window: each update is
// queued on Fyne's UI goroutine and never waits for it.
func NewBridge() *Bridge {
	return &Bridge{do: fyne.Do}
}

// Do runs f on the UI goroutine. It never blocks the caller, so a slow
// frame cannot hold up a job.
func (b *Bridge) Do(f func()) {
	b.do(f)
}
