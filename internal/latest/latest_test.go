package latest

import (
	"context"
	"sync"
	"testing"
	"time"

	"easel/internal/work"
)

// ui stands for the UI goroutine: functions run one at a time.
type ui struct{ mu sync.Mutex }

func (u *ui) do(f func()) { u.mu.Lock(); defer u.mu.Unlock(); f() }

// scope is a window's scope of work over u.
func (u *ui) scope() *work.Scope { return work.New(u.do) }

// Only the newest load is shown, whatever order they end in, and each
// older one is cancelled when a newer starts; Stop shows nothing.
func TestOnlyTheNewestIsShown(t *testing.T) {
	var u ui
	s := u.scope()
	l := New(s)
	release := make(chan struct{})
	var shown []string
	var cancelled sync.WaitGroup
	cancelled.Add(1)
	Run(l, func(ctx context.Context) (string, error) {
		select {
		case <-ctx.Done():
			cancelled.Done()
		case <-time.After(5 * time.Second):
		}
		<-release
		return "old", nil
	}, func(s string, _ error) { shown = append(shown, s) })
	Run(l, func(context.Context) (string, error) { return "new", nil }, func(s string, _ error) { shown = append(shown, s) })
	cancelled.Wait() // the older load saw its context done
	close(release)
	s.Wait()
	if len(shown) != 1 || shown[0] != "new" {
		t.Errorf("shown %v, want only the newest", shown)
	}
	stopped := make(chan struct{})
	Run(l, func(context.Context) (string, error) { <-stopped; return "stopped", nil }, func(s string, _ error) { shown = append(shown, s) })
	l.Stop()
	close(stopped)
	s.Wait()
	for _, s := range shown {
		if s == "stopped" {
			t.Error("a stopped load was shown")
		}
	}
}
