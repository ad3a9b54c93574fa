package work

import (
	"context"
	"sync/atomic"
)

// Load runs load on a task of s's scope, then show with what it returned
// on the UI goroutine: the pair every part of the window writes for a
// query, a file read or a listing, written once. A load the window's
// closing cut short shows nothing: the widgets it would fill are gone.
func Load[T any](s Starter, load func(ctx context.Context) (T, error), show func(T, error)) {
	s.Go(func(ctx context.Context) {
		v, err := load(ctx)
		if ctx.Err() != nil {
			return
		}
		s.Do(func() { show(v, err) })
	})
}

// Run is Load for work with nothing to show but how it ended (a write
// the user asked for: a favourite, a rename): then runs on the UI
// goroutine with task's error, nil when it worked. A nil then drops the
// ending: work no one is told of (a use counted).
func Run(s Starter, task func(ctx context.Context) error, then func(err error)) {
	Load(s, func(ctx context.Context) (struct{}, error) { return struct{}{}, task(ctx) }, func(_ struct{}, err error) {
		if then != nil {
			then(err)
		}
	})
}

// Latest is a load that may be started again before it ends (a reload as
// the user types, another picture opened): only the newest one's result
// is shown, whichever ends last. Its zero value is ready.
type Latest struct {
	seq atomic.Uint64
}

// LoadLatest is Load whose result is dropped when another load of l was
// started since.
func LoadLatest[T any](l *Latest, s Starter, load func(ctx context.Context) (T, error), show func(T, error)) {
	n := l.seq.Add(1)
	Load(s, load, func(v T, err error) {
		if l.seq.Load() == n {
			show(v, err)
		}
	})
}

// Drop makes the results of the loads of l under way stale: none of them
// is shown.
func (l *Latest) Drop() { l.seq.Add(1) }
