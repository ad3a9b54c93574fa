// Package work is how the window starts work off its UI goroutine: a
// gallery query, a file read, a service's listing. Every task runs on
// one context that ends when the window closes, so a load still under
// way when the user quits stops rather than writes into widgets that are
// gone, and one WaitGroup counts them all, so tests (and the window's
// close) can wait until nothing is left running. Jobs that cost money are
// not started here: the runner (package jobs) owns them, and they land
// in the gallery whatever the window does.
package work

import (
	"context"
	"sync"
	"time"
)

// Starter is what a tab may do with the window's scope: start a task,
// hop back to the UI goroutine, or read there with the window's context. Closing the
// scope is the window's alone.
type Starter interface {
	Go(task func(ctx context.Context))
	// Do runs f on the UI goroutine (through the window's one bridge);
	// it never blocks the caller.
	Do(f func())
	Context() context.Context
}

// Scope is the window's tasks. Its zero value is not usable: make it with
// New.
type Scope struct {
	do     func(func())
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	// running counts the tasks; idle is signalled when it reaches zero.
	// Not a sync.WaitGroup: the UI goroutine starts a task at any moment,
	// also while a test waits for the last to end, and a WaitGroup
	// forbids an Add from zero during a Wait (go test -race caught it in
	// Chat's tests when they had a WaitGroup of their own).
	running int
	idle    *sync.Cond
}

// New makes a scope: the root of a window's work. do runs a function on
// the window's UI goroutine (the window's bridge).
func New(do func(func())) *Scope {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Scope{do: do, ctx: ctx, cancel: cancel}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// Context is the scope's context: done once Close is called.
func (s *Scope) Context() context.Context { return s.ctx }

// Do runs f on the UI goroutine.
func (s *Scope) Do(f func()) { s.do(f) }

// Go runs task on a goroutine of its own with the scope's context. After
// Close it runs nothing: the window it would have answered is gone.
func (s *Scope) Go(task func(ctx context.Context)) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.running++
	s.mu.Unlock()
	go func() {
		defer s.done()
		task(s.ctx)
	}()
}

func (s *Scope) done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
	if s.running == 0 {
		s.idle.Broadcast()
	}
}

// Wait waits until no task is running.
func (s *Scope) Wait() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.running > 0 {
		s.idle.Wait()
	}
}

// Close ends the scope's context, starts nothing more, and waits up to
// limit for the tasks under way to see it; it reports whether they all
// ended in time. A task that ignores its context (a file read that cannot
// be interrupted) is not waited for beyond limit.
func (s *Scope) Close(limit time.Duration) bool {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	done := make(chan struct{})
	go func() {
		s.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(limit):
		return false
	}
}
