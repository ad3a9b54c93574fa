package work

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

func TestCloseEndsTheContextAndWaitsForTasks(t *testing.T) {
	s := New(func(f func()) { f() })
	var ended atomic.Bool
	started := make(chan struct{})
	s.Go(func(ctx context.Context) {
		close(started)
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond)
		ended.Store(true)
	})
	<-started
	if !s.Close(time.Second) {
		t.Fatal("a task that saw its context end was not waited for")
	}
	if !ended.Load() {
		t.Error("Close returned before the task ended")
	}
	ran := false
	s.Go(func(context.Context) { ran = true })
	s.Wait()
	if ran {
		t.Error("a task started after Close ran")
	}
}

func TestCloseDoesNotWaitBeyondItsLimit(t *testing.T) {
	s := New(func(f func()) { f() })
	release := make(chan struct{})
	defer close(release)
	s.Go(func(context.Context) { <-release })
	start := time.Now()
	if s.Close(50 * time.Millisecond) {
		t.Error("a task that ignores its context was reported as ended")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close waited %v", d)
	}
}

func TestWaitWaitsForEveryTask(t *testing.T) {
	s := New(func(f func()) { f() })
	var n atomic.Int32
	for range 8 {
		s.Go(func(context.Context) {
			time.Sleep(10 * time.Millisecond)
			n.Add(1)
		})
	}
	s.Wait()
	if n.Load() != 8 {
		t.Errorf("%d of 8 tasks had ended when Wait returned", n.Load())
	}
}

func TestATaskMayStartWhileAnotherGoroutineWaits(t *testing.T) {
	s := New(func(f func()) { f() })
	release := make(chan struct{})
	s.Go(func(context.Context) { <-release })
	waited := make(chan struct{})
	go func() {
		s.Wait()
		close(waited)
	}()
	for range 50 {
		s.Go(func(context.Context) {})
	}
	close(release)
	<-waited
}
