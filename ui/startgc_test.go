package ui

import (
	"runtime/debug"
	"testing"
)

// holdGC stops collection, bounds the heap, and gives back exactly the
// settings it found: a user's GOGC, and a GOMEMLIMIT lower than its own.
func TestHoldGCRestoresTheSettingsItFound(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(64 << 20))

	release := holdGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC during start-up = %d, want off", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("memory limit during start-up = %d, want the user's lower 64 MiB", got)
	}
	release()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("GOGC after = %d, want 150", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("memory limit after = %d, want 64 MiB", got)
	}

	debug.SetMemoryLimit(1 << 40)
	release = holdGC()
	if got := debug.SetMemoryLimit(-1); got != startupMemoryLimit {
		t.Errorf("memory limit during start-up = %d, want %d", got, startupMemoryLimit)
	}
	release()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit after = %d, want the 1 TiB it found", got)
	}
}
