// Package latest runs loads where only the newest counts: a search typed
// letter by letter, a large view stepped through with the arrow keys, a
// preview redrawn as a slider moves. Each new load cancels the one before
// (its context is done) and only the newest's result is delivered, on the
// UI goroutine: the rooms no longer keep sequence counters by hand, and an
// older answer that arrives late can never overwrite a newer one.
package latest

import (
	"context"
	"sync"
)

// Loads is one place's loads (one list, one preview). Its zero value is
// not usable: make it with New.
type Loads struct {
	do     func(func())
	mu     sync.Mutex
	seq    uint64
	cancel context.CancelFunc
	work   sync.WaitGroup
}

// New makes a place's loads; do runs a function on the UI goroutine (the
// window's bridge).
func New(do func(func())) *Loads { return &Loads{do: do} }

// Run starts load off the UI goroutine, cancelling the load before, and
// hands its result to show on the UI goroutine unless a newer Run (or
// Stop) has come since.
func Run[T any](l *Loads, load func(ctx context.Context) (T, error), show func(T, error)) {
	ctx, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	if l.cancel != nil {
		l.cancel()
	}
	l.seq++
	seq := l.seq
	l.cancel = cancel
	l.work.Add(1)
	l.mu.Unlock()
	go func() {
		defer l.work.Done()
		v, err := load(ctx)
		l.do(func() {
			if l.current(seq) {
				show(v, err)
			}
		})
	}()
}

// current reports whether seq is the newest load, not stopped.
func (l *Loads) current(seq uint64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return seq == l.seq && l.cancel != nil
}

// Stop cancels the load under way; its result is not shown.
func (l *Loads) Stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	l.seq++
}

// Wait waits for the loads started to end (a closing window waits so
// nothing touches it afterwards).
func (l *Loads) Wait() { l.work.Wait() }
