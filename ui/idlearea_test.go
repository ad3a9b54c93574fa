package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// With the prompt focused, Fyne fades the text cursor and repaints the
// whole window on every frame of the fade (about 14 a second), and with
// software GL (llvmpipe, as on Xvfb and on machines without a GPU
// driver) a frame costs in proportion to the pixels its objects shade:
// each rectangle's, text's and image's own area, whatever is under it.
// BenchmarkIdleCPU measures that cost in CPU time, noisily; these measure
// its cause, the area painted per frame, exactly, against the bare
// window BenchmarkIdleCPU compares Easel with (one focused four-row
// entry at 1280x800).

// idleWindow is the size both windows are measured at, as in
// BenchmarkIdleCPU.
var idleWindow = fyne.NewSize(1280, 800)

// maxIdleAreaRatio is how much more Text to image may paint per frame
// than the bare entry. It was 1.53x with every picker the form's width
// (BenchmarkIdleCPU's median then 1.53x), 1.28x with the short pickers
// sharing one width (1.32x-1.38x), and is 1.04x since the prompt draws
// its background and outline as one rectangle (1.03x-1.13x): the CPU
// ratio follows the area, and its goal is 1.3x. A form that grows past
// it costs every idle second with the prompt focused; see
// docs/decisions.md.
const maxIdleAreaRatio = 1.15

// paintedArea is the area, in Fyne units, that Fyne's GL painter shades
// to draw root in a window of size window: every visible rectangle with
// a fill or a stroke, over its whole bounds (a stroke-only one shades its
// inside too), text over its measured size, images, rasters, gradients
// and other shapes over their bounds; each clipped to the window and to
// any scroller around it, as the painter clips.
func paintedArea(root fyne.CanvasObject, window fyne.Size) float32 {
	var total float32
	var walk func(o fyne.CanvasObject, origin fyne.Position, clipMin, clipMax fyne.Position)
	walk = func(o fyne.CanvasObject, origin fyne.Position, clipMin, clipMax fyne.Position) {
		if o == nil || !o.Visible() {
			return
		}
		pos, size := origin.Add(o.Position()), o.Size()
		if _, clips := o.(fyne.Scrollable); clips {
			clipMin = fyne.NewPos(max(clipMin.X, pos.X), max(clipMin.Y, pos.Y))
			clipMax = fyne.NewPos(min(clipMax.X, pos.X+size.Width), min(clipMax.Y, pos.Y+size.Height))
		}
		if shaded, drawn := shadedSize(o); shaded {
			w := min(clipMax.X, pos.X+drawn.Width) - max(clipMin.X, pos.X)
			h := min(clipMax.Y, pos.Y+drawn.Height) - max(clipMin.Y, pos.Y)
			if w > 0 && h > 0 {
				total += w * h
			}
		}
		switch v := o.(type) {
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c, pos, clipMin, clipMax)
			}
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c, pos, clipMin, clipMax)
			}
		}
	}
	walk(root, fyne.Position{}, fyne.Position{}, fyne.NewPos(window.Width, window.Height))
	return total
}

// shadedSize says whether the painter draws o itself and over what
// size: text is drawn at its measured size, everything else over its
// bounds; a rectangle with neither fill nor stroke is skipped.
func shadedSize(o fyne.CanvasObject) (bool, fyne.Size) {
	switch v := o.(type) {
	case *canvas.Rectangle:
		filled := v.FillColor != nil && v.FillColor != color.Transparent
		stroked := v.StrokeColor != nil && v.StrokeColor != color.Transparent && v.StrokeWidth > 0
		return filled || stroked, v.Size()
	case *canvas.Text:
		return v.Text != "" && v.Text != " ", v.MinSize()
	case *canvas.Image, *canvas.Raster, *canvas.LinearGradient, *canvas.RadialGradient,
		*canvas.Circle, *canvas.Line:
		return true, o.Size()
	}
	return false, fyne.Size{}
}

// idleAreas lays out Text to image with its prompt focused (as the
// window opens) and, in a second window of the same app, the bare
// window's focused entry, both at idleWindow, and returns the area each
// paints per frame.
func idleAreas(ea *App) (easel, bare float32) {
	onUI(ea, func() {
		ea.win.Resize(idleWindow)
		ea.SelectTab(TabGenerate)
		ea.win.Canvas().Focus(ea.generate.Prompt())
		easel = paintedArea(ea.win.Canvas().Content(), idleWindow)

		w := ea.fyneApp.NewWindow("bare")
		defer w.Close()
		// bench/barewindow's content.
		e := widget.NewMultiLineEntry()
		e.SetMinRowsVisible(4)
		w.SetContent(container.NewBorder(e, nil, nil, nil))
		w.Resize(idleWindow)
		w.Canvas().Focus(e)
		bare = paintedArea(w.Canvas().Content(), idleWindow)
	})
	return easel, bare
}

// TestIdleFramePaintsLittleMoreThanABareEntry holds the area Text to
// image paints per cursor frame to maxIdleAreaRatio of the bare entry's.
func TestIdleFramePaintsLittleMoreThanABareEntry(t *testing.T) {
	easel, bare := idleAreas(newServedApp(t))
	if bare <= 0 {
		t.Fatal("the bare entry paints nothing: the walk is broken")
	}
	ratio := easel / bare
	t.Logf("painted per frame: Text to image %.0f, bare entry %.0f (%.2fx)", easel, bare, ratio)
	if ratio > maxIdleAreaRatio {
		t.Errorf("Text to image paints %.2fx the bare entry's area per cursor frame (%.0f against %.0f), over %.2fx",
			ratio, easel, bare, maxIdleAreaRatio)
	}
}

// BenchmarkIdleFrameArea reports the area painted per cursor frame, and
// its ratio to the bare entry's: the cause of BenchmarkIdleCPU's ratio,
// without its noise.
func BenchmarkIdleFrameArea(b *testing.B) {
	ea := newServedApp(b)
	var easel, bare float32
	for i := 0; i < b.N; i++ {
		easel, bare = idleAreas(ea)
	}
	b.ReportMetric(float64(easel), "easel-px/frame")
	b.ReportMetric(float64(bare), "bare-px/frame")
	b.ReportMetric(float64(easel/bare), "idle-area-ratio")
}
