package cores

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// withCores runs the test with n Ps and no reservation, and puts both
// back after.
func withCores(t *testing.T, n int) {
	was := runtime.GOMAXPROCS(n)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(was)
		Reserve(0)
	})
	Reserve(0)
}

func TestWorkersLeaveTheReservedCoresAndNeverNone(t *testing.T) {
	withCores(t, 4)
	if got := Workers(); got != 4 {
		t.Errorf("with nothing reserved, %d workers, want 4", got)
	}
	Reserve(1)
	if got := Workers(); got != 3 {
		t.Errorf("with one core reserved of 4, %d workers, want 3", got)
	}
	Reserve(9)
	if got := Workers(); got != 1 {
		t.Errorf("with more reserved than there are, %d workers, want 1", got)
	}
}

// Holds run as many at once as there are workers, and no more.
func TestHoldsTakeTurnsForTheCoresLeft(t *testing.T) {
	withCores(t, 3)
	Reserve(1)
	var mu sync.Mutex
	now, most := 0, 0
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			Hold(func() {
				mu.Lock()
				now++
				most = max(most, now)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
				mu.Lock()
				now--
				mu.Unlock()
			})
		})
	}
	wg.Wait()
	if most != 2 {
		t.Errorf("%d holds ran at once, want 2 (3 cores, 1 reserved)", most)
	}
}

// A hold waiting for its turn starts when the reservation is lifted.
func TestLiftingTheReservationLetsAWaitingHoldRun(t *testing.T) {
	withCores(t, 2)
	Reserve(1)
	release := make(chan struct{})
	started := make(chan struct{})
	go Hold(func() {
		close(started)
		<-release
	})
	<-started
	defer close(release)
	ran := make(chan struct{})
	go Hold(func() { close(ran) })
	select {
	case <-ran:
		t.Fatal("a second hold ran on two cores with one reserved and one busy")
	case <-time.After(50 * time.Millisecond):
	}
	Reserve(0)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting hold did not run once the reservation was lifted")
	}
}
