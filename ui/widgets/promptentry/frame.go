package promptentry

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// frameRenderer is Fyne's entry renderer with the field's background and
// its outline drawn as one rectangle. Fyne draws them as two: a filled
// box and, over it, a stroke-only rectangle, and its GL painter shades a
// stroked rectangle over its whole inside, so the field's area was
// shaded twice on every frame. With the prompt focused the cursor's fade
// repaints the window about fourteen times a second, and on software GL
// (Xvfb, machines without a GPU driver) that second pass was the
// largest single cost of an idle Text to image (docs/decisions.md). The
// look is the same: the outline's rectangle takes the box's colour as
// its fill, and the box is no longer drawn.
type frameRenderer struct {
	fyne.WidgetRenderer
	box, outline *canvas.Rectangle
}

// newFrameRenderer wraps an entry's renderer. Fyne's entry renderer
// lists its box and then its outline first among its objects; if a Fyne
// release changes that, the wrapper leaves the renderer as it is (two
// passes, still correct) and TestFrameIsOneRectangle fails.
func newFrameRenderer(r fyne.WidgetRenderer) fyne.WidgetRenderer {
	objs := r.Objects()
	if len(objs) < 2 {
		return r
	}
	box, ok1 := objs[0].(*canvas.Rectangle)
	outline, ok2 := objs[1].(*canvas.Rectangle)
	if !ok1 || !ok2 || outline.StrokeWidth == 0 {
		return r
	}
	f := &frameRenderer{WidgetRenderer: r, box: box, outline: outline}
	f.merge()
	return f
}

// merge moves the box's colour, which the entry sets on every refresh
// (theme, disabled), onto the outline's fill.
func (f *frameRenderer) merge() {
	f.outline.FillColor = f.box.FillColor
	f.box.Hidden = true
}

func (f *frameRenderer) Refresh() {
	f.WidgetRenderer.Refresh()
	f.merge()
}
