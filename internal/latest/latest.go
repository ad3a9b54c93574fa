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

	"easel/internal/work"
)

// Loads is one place's loads (one list, one preview). Its zero value is
// not usable: make it with New.
type Loads struct {
	work   work.Starter
	mu     sync.Mutex
	seq    uint64
	cancel context.CancelFunc
}

// New makes a place's loads, run on the window's scope of work: a load's
// context is a child of the window's, so closing the window ends it, and
// the scope counts it with the window's other work.
func New(w work.Starter) *Loads { return &Loads{work: w} }

// Run starts load off the UI goroutine, cancelling the load before, and
// hands its result to show on the UI goroutine unless a newer Run (or
// Stop) has come since.
func Run[T any](l *Loads, load func(ctx context.Context) (T, error), show func(T, error)) {
	ctx, cancel := context.WithCancel(l.work.Context())
	l.mu.Lock()
	if l.cancel != nil {
		l.cancel()
	}
	l.seq++
	seq := l.seq
	l.cancel = cancel
	l.mu.Unlock()
	l.work.Go(func(context.Context) {
		v, err := load(ctx)
		l.work.Do(func() {
			if l.current(seq) {
				show(v, err)
			}
		})
	})
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
