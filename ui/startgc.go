package ui

import "runtime/debug"

// startupMemoryLimit bounds the heap while collection waits for the
// first paint (see holdGC): start-up reaches about 40 MB.
const startupMemoryLimit = 256 << 20

// holdGC stops garbage collection until the function it returns is
// called, except as the heap nears startupMemoryLimit (or a lower
// GOMEMLIMIT). Start-up allocates in a burst — font tables, the widget
// tree, text images — and the default target collects five times in the
// first 100 ms over a heap that is still growing, marking the same live
// font data each time (GODEBUG=gctrace=1 shows it), on the two cores
// that are building the widgets and the window. Run holds collection
// until the window has painted; GOGC and GOMEMLIMIT then apply as set,
// and one collection in the background hands the start-up garbage back
// to the system, which the runtime would otherwise keep resident as
// headroom.
func holdGC() (release func()) {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(-1) // reads it
	debug.SetMemoryLimit(min(limit, startupMemoryLimit))
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
		go debug.FreeOSMemory()
	}
}
