package ui

import (
	"image"
	"sort"
	"time"

	"github.com/disintegration/imaging"

	"easel/internal/library"
)

// medianNs is the median time of f over runs: a floor measured in the
// same process as the benchmark it is compared with.
func medianNs(runs int, f func()) float64 {
	times := make([]float64, runs)
	for i := range times {
		start := time.Now()
		f()
		times[i] = float64(time.Since(start).Nanoseconds())
	}
	sort.Float64s(times)
	return times[runs/2]
}

// resizeFloor is the plain resize a thumbnail is compared with.
func resizeFloor(src image.Image) image.Image {
	return imaging.Fit(src, library.ThumbSize, library.ThumbSize, imaging.Linear)
}
