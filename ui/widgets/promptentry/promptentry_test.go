package promptentry

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// promptAndEntry is a window of a prompt with an entry below it.
func promptAndEntry(t *testing.T) (fyne.App, fyne.Window, *Entry, *widget.Entry) {
	a := test.NewTempApp(t)
	w := a.NewWindow("")
	p := New("describe")
	next := widget.NewEntry()
	w.SetContent(container.NewVBox(p, next))
	w.Resize(fyne.NewSize(400, 300))
	return a, w, p, next
}

// Tab moves from the prompt to the next control and types nothing;
// Enter still breaks a line.
func TestTabLeavesThePrompt(t *testing.T) {
	_, w, p, next := promptAndEntry(t)
	w.Canvas().Focus(p)
	test.Type(p, "a fox")
	p.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(p, "at dusk")
	w.Canvas().FocusNext()
	if p.Text != "a fox\nat dusk" {
		t.Errorf("prompt %q", p.Text)
	}
	if w.Canvas().Focused() != next {
		t.Error("Tab did not move on to the next control")
	}
	if p.AcceptsTab() {
		t.Error("the prompt takes Tab as text")
	}
}

// visibleRects are the rectangles r draws, in order.
func visibleRects(r fyne.WidgetRenderer) []*canvas.Rectangle {
	var rects []*canvas.Rectangle
	for _, o := range r.Objects() {
		if rect, ok := o.(*canvas.Rectangle); ok && rect.Visible() {
			rects = append(rects, rect)
		}
	}
	return rects
}

// The field's background and outline are one rectangle, drawn once per
// frame, and it follows the focus and the disabled state as Fyne's two
// did.
func TestFrameIsOneRectangle(t *testing.T) {
	a, w, p, other := promptAndEntry(t)
	th, v := a.Settings().Theme(), a.Settings().ThemeVariant()

	frame := func() *canvas.Rectangle {
		t.Helper()
		rects := visibleRects(test.WidgetRenderer(p))
		if len(rects) != 1 {
			t.Fatalf("the prompt draws %d rectangles for its frame, want 1", len(rects))
		}
		return rects[0]
	}
	if n := len(visibleRects(test.WidgetRenderer(other))); n != 2 {
		t.Fatalf("Fyne's entry draws %d rectangles, not its box and outline: frameRenderer is out of date", n)
	}

	f := frame()
	if f.FillColor != th.Color(theme.ColorNameInputBackground, v) {
		t.Errorf("fill %v, want the input background", f.FillColor)
	}
	if f.StrokeColor != th.Color(theme.ColorNameInputBorder, v) || f.StrokeWidth == 0 {
		t.Errorf("unfocused outline %v (%v wide), want the input border", f.StrokeColor, f.StrokeWidth)
	}
	w.Canvas().Focus(p)
	if got := frame().StrokeColor; got != th.Color(theme.ColorNamePrimary, v) {
		t.Errorf("focused outline %v, want the primary colour", got)
	}
	w.Canvas().Unfocus()
	p.Disable()
	if got := frame().StrokeColor; got != th.Color(theme.ColorNameDisabled, v) {
		t.Errorf("disabled outline %v, want the disabled colour", got)
	}
}

// The prompt looks as Fyne's own multi-line entry does, focused and not,
// but for the inner edge of its rounded corners: there Fyne's box, inset
// within the outline, let a few pixels of the window's background show
// through the anti-aliasing, and the one rectangle fills them.
func TestFrameLooksLikeFynesEntry(t *testing.T) {
	a := test.NewTempApp(t)
	size := fyne.NewSize(300, 140)
	shot := func(e fyne.Focusable, o fyne.CanvasObject, focus bool) image.Image {
		w := a.NewWindow("")
		defer w.Close()
		w.SetPadded(false)
		w.SetContent(o)
		w.Resize(size)
		if focus {
			w.Canvas().Focus(e)
		}
		return w.Canvas().Capture()
	}
	for _, focus := range []bool{false, true} {
		p := New("describe")
		p.SetText("a red fox")
		plain := widget.NewMultiLineEntry()
		plain.Wrapping = fyne.TextWrapWord
		plain.PlaceHolder = "describe"
		plain.SetMinRowsVisible(5)
		plain.SetText("a red fox")
		got, want := shot(p, p, focus), shot(plain, plain, focus)
		if n := differingPixels(got, want, cornerSize); n > 0 {
			t.Errorf("focused=%v: %d pixels differ from Fyne's entry", focus, n)
		}
	}
}

// cornerSize is the side of the square at each corner of the field
// where the anti-aliasing of the outline's inner edge may differ: the
// outline's inset, width and radius, in pixels, at the test's scale.
const cornerSize = 8

// differingPixels counts the pixels of a and b more than two levels
// apart in any channel, outside the corner squares of side corner.
func differingPixels(a, b image.Image, corner int) int {
	n := 0
	r := a.Bounds().Intersect(b.Bounds())
	inCorner := func(x, y int) bool {
		nearX := x < r.Min.X+corner || x >= r.Max.X-corner
		nearY := y < r.Min.Y+corner || y >= r.Max.Y-corner
		return nearX && nearY
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if inCorner(x, y) {
				continue
			}
			ar, ag, ab, aa := a.At(x, y).RGBA()
			br, bg, bb, ba := b.At(x, y).RGBA()
			for _, d := range [][2]uint32{{ar, br}, {ag, bg}, {ab, bb}, {aa, ba}} {
				if diff := int(d[0]>>8) - int(d[1]>>8); diff > 2 || diff < -2 {
					n++
					break
				}
			}
		}
	}
	return n
}
