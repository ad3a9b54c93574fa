package ui

import (
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
)

// Bridge is the single hop from worker goroutines back to Fyne's UI
// goroutine. Keeping every fyne.Do call here makes it easy to audit that no
// widget is touched from elsewhere, and lets tests swap the hop.
type Bridge struct {
	do func(func())
	// mu runs one update at a time. The real driver already runs every
	// fyne.Do callback on its one UI goroutine, so mu is never contended
	// there; Fyne's test driver runs each callback on the goroutine that
	// called fyne.Do, and mu keeps those from overlapping.
	mu sync.Mutex
	// closed drops updates that arrive after the window is gone.
	closed atomic.Bool
}

// NewBridge returns the bridge used by the real window: each update is
// queued on Fyne's UI goroutine and never waits for it.
func NewBridge() *Bridge {
	return &Bridge{do: fyne.Do}
}

// Do runs f on the UI goroutine. It never blocks the caller, so a slow
// frame cannot hold up a job.
func (b *Bridge) Do(f func()) {
	b.do(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if !b.closed.Load() {
			f()
		}
	})
}

// Close drops every update from now on: the window they were for is
// closed, and its widgets must not be touched (an answer that arrives
// late, a job that ends after the last window).
func (b *Bridge) Close() { b.closed.Store(true) }
