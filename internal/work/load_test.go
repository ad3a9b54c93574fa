package work

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// ui is a stand-in for the window's UI goroutine: what Do hands it runs
// there, in order.
type ui struct {
	mu  sync.Mutex
	ran []string
}

func (u *ui) do(f func()) { u.mu.Lock(); defer u.mu.Unlock(); f() }

// A load's result is shown on the UI side; one the scope's closing cut
// short is not; Run tells how its task ended.
func TestLoadShowsWhatItLoaded(t *testing.T) {
	u := &ui{}
	s := New(u.do)
	Load(s, func(context.Context) (string, error) { return "three items", nil }, func(v string, err error) { u.ran = append(u.ran, v) })
	Run(s, func(context.Context) error { return nil }, nil)
	Run(s, func(context.Context) error { return errors.New("disk full") }, func(err error) { u.ran = append(u.ran, err.Error()) })
	s.Wait()
	u.mu.Lock()
	if len(u.ran) != 2 {
		t.Errorf("shown: %q", u.ran)
	}
	u.mu.Unlock()

	started := make(chan struct{})
	Load(s, func(ctx context.Context) (string, error) { close(started); <-ctx.Done(); return "late", nil },
		func(v string, err error) { u.ran = append(u.ran, v) })
	<-started
	s.Close(time.Second)
	if len(u.ran) != 2 {
		t.Errorf("a load the close cut short was shown: %q", u.ran)
	}
}
