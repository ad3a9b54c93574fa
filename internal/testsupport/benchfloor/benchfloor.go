// Package benchfloor measures the floor a benchmark is compared with in
// the same run — a plain base64 decode, a plain decode and resize — so the
// figures `make bench` prints are ratios that hold on any machine.
package benchfloor

import (
	"sort"
	"time"
)

// MedianNs runs f runs times and returns the median time in nanoseconds;
// the median keeps one slow run (a GC, another process) out of the floor.
func MedianNs(runs int, f func()) float64 {
	times := make([]float64, runs)
	for i := range times {
		start := time.Now()
		f()
		times[i] = float64(time.Since(start).Nanoseconds())
	}
	return Median(times)
}

// Median is the middle of xs (which it sorts).
func Median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// Pairs times floor and subject n times in pairs, back to back and in
// turn first, and returns the floor's times and the subject's ratios to
// it, each taken within its pair: a slower moment of the machine (or the
// other's garbage) weighs on both alike. Each function returns its time
// in nanoseconds.
func Pairs(n int, floor, subject func() float64) (floors, ratios []float64) {
	for i := 0; i < n; i++ {
		var f, s float64
		if i%2 == 0 {
			f, s = floor(), subject()
		} else {
			s, f = subject(), floor()
		}
		floors = append(floors, f)
		ratios = append(ratios, s/f)
	}
	return floors, ratios
}
