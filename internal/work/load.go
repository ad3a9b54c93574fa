package work

import (
	"context"
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

// A load that may be started again before it ends, where only the newest
// counts (a search typed letter by letter), is latest.Run's: it cancels
// the one before as well.
