package maskpaint

import (
	"image"
	"math"
	"runtime"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"easel/internal/mask"
	"easel/internal/testsupport/benchfloor"
)

// strokeAt is the i-th of 200 pointer positions of a stroke across the
// widget, a wave so it crosses many tiles.
func strokeAt(i, k int) fyne.Position {
	x := 20 + float64(i)*4.8
	y := 512 + 300*math.Sin(float64(i)/25+float64(k))
	return fyne.NewPos(float32(x), float32(y))
}

// A 200-segment stroke on a 4096x4096 first image, shown at 1024x1024
// (a quarter: every segment spans about 19 image pixels), against the
// floor of the brush's own work on the same segments (mask.Line alone).
// Goal: at most 4 ms of work a segment, redrawing the touched tiles
// included. Then 50 such strokes, each a step to undo: the history's
// size and the heap it holds. Goal: under 64 MB.
func BenchmarkStroke4096(b *testing.B) {
	test.NewTempApp(b)
	img := image.NewGray(image.Rect(0, 0, 4096, 4096))
	var perSegment, floor []float64
	for n := 0; n < b.N; n++ {
		p := New(fyne.NewSize(100, 100))
		p.SetImage(img)
		p.Resize(fyne.NewSize(1024, 1024))
		p.Radius, p.Hardness = 48, 0.8
		ns := benchfloor.MedianNs(1, func() {
			for i := 0; i < 200; i++ {
				p.surface.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: strokeAt(i, n)}})
			}
			p.surface.DragEnd()
		})
		perSegment = append(perSegment, ns/200)
		m := mask.New(4096, 4096)
		floor = append(floor, benchfloor.MedianNs(1, func() {
			m.Begin()
			last := p.toImage(strokeAt(0, n))
			for i := 0; i < 200; i++ {
				at := p.toImage(strokeAt(i, n))
				m.Line(last[0], last[1], at[0], at[1], 48, 0.8, false)
				last = at
			}
			m.End()
		})/200)
	}
	b.ReportMetric(benchfloor.Median(perSegment)/1e6, "ms-per-segment")
	b.ReportMetric(benchfloor.Median(floor)/1e6, "floor-ms-per-segment")

	// Fifty strokes to undo, on one painter.
	p := New(fyne.NewSize(100, 100))
	p.SetImage(img)
	p.Resize(fyne.NewSize(1024, 1024))
	p.Radius, p.Hardness = 48, 0.8
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for k := 0; k < 50; k++ {
		for i := 0; i < 200; i++ {
			p.surface.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: strokeAt(i, k)}})
		}
		p.surface.DragEnd()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if !p.Mask().CanUndo() {
		b.Fatal("nothing to undo")
	}
	b.ReportMetric(float64(p.Mask().HistoryBytes())/(1<<20), "undo-MB")
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "heap-growth-MB")
}
