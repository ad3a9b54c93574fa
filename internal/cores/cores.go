// Package cores shares the machine's cores between image work and the
// one goroutine that must answer at once: the window's UI goroutine.
//
// Go's scheduler has no priorities. When image work fills every P (a
// PNG decode here, the scaler's goroutines there), a callback for the
// window waits until one of them is preempted, 10 ms at a time: on two
// cores, sixteen 50 MB references dropped into Edit stalled the painter's
// callback 20 ms behind a thumbnail's two resize goroutines (session 25,
// runtime trace). So the window reserves a core: image work's parallel
// loops use the others (Workers), and the window's large decodes take
// turns for them (Hold). The command line reserves none and uses every
// core.
package cores

import (
	"runtime"
	"sync"
)

var (
	mu   sync.Mutex
	turn = sync.NewCond(&mu)
	// reserved is how many cores Reserve keeps; busy how many Holds run.
	reserved, busy int
)

// Reserve keeps n cores from image work for as long as the process
// runs (the window's UI goroutine asks for one). A second call sets,
// not adds.
func Reserve(n int) {
	mu.Lock()
	reserved = max(0, n)
	mu.Unlock()
	turn.Broadcast()
}

// Workers is how many goroutines a parallel loop of image work may
// run: every core but the reserved ones, and at least one.
func Workers() int {
	mu.Lock()
	defer mu.Unlock()
	return workersLocked()
}

func workersLocked() int {
	return max(1, runtime.GOMAXPROCS(0)-reserved)
}

// Hold runs f once fewer than Workers holds run, so that heavy tasks
// started apart (the next reference's thumbnail, the first's decode for
// the mask painter) do not between them fill the cores the UI goroutine
// was left. f must not wait for another Hold: on two cores there is one
// turn.
func Hold(f func()) {
	mu.Lock()
	for busy >= workersLocked() {
		turn.Wait()
	}
	busy++
	mu.Unlock()
	defer func() {
		mu.Lock()
		busy--
		mu.Unlock()
		turn.Signal()
	}()
	f()
}
