// Package compare is a before/after view: two images over each other with
// a divider the user drags (or moves with the arrow keys), or side by
// side. An edit is judged by what changed and what did not; this shows
// both at once. The drawing is imageio.SplitView's; the widget knows
// nothing of the app.
package compare

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/imageio"
)

// View compares two images.
type View struct {
	widget.BaseWidget
	before, after image.Image
	// Split is where the divider is, 0 (all after) to 1 (all before).
	Split float64
	// SideBySide shows the two apart instead.
	SideBySide bool
	raster     *canvas.Raster
	left       *canvas.Image
	right      *canvas.Image
	min        fyne.Size
}

// New makes a view of before and after that asks for at least min.
func New(before, after image.Image, min fyne.Size) *View {
	v := &View{before: before, after: after, Split: 0.5, min: min}
	v.raster = canvas.NewRaster(func(w, h int) image.Image { return imageio.SplitView(v.before, v.after, w, h, v.Split) })
	v.left = canvas.NewImageFromImage(before)
	v.right = canvas.NewImageFromImage(after)
	v.left.FillMode, v.right.FillMode = canvas.ImageFillContain, canvas.ImageFillContain
	v.ExtendBaseWidget(v)
	return v
}

// SetSideBySide switches between the slider and the two apart.
func (v *View) SetSideBySide(on bool) {
	v.SideBySide = on
	v.Refresh()
}

// Dragged implements fyne.Draggable: the divider follows the pointer.
func (v *View) Dragged(e *fyne.DragEvent) { v.moveTo(e.Position) }

// DragEnd implements fyne.Draggable.
func (v *View) DragEnd() {}

// Tapped implements fyne.Tappable: the divider jumps to the pointer.
func (v *View) Tapped(e *fyne.PointEvent) { v.moveTo(e.Position) }

func (v *View) moveTo(p fyne.Position) {
	if v.SideBySide || v.Size().Width <= 0 || v.before == nil {
		return
	}
	// The split is a share of the fitted image's width, not the view's.
	s := v.Size()
	b := v.before.Bounds()
	scale := min(float64(s.Width)/float64(b.Dx()), float64(s.Height)/float64(b.Dy()))
	fw := float64(b.Dx()) * scale
	x0 := (float64(s.Width) - fw) / 2
	v.Split = min(max((float64(p.X)-x0)/fw, 0), 1)
	v.raster.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (v *View) CreateRenderer() fyne.WidgetRenderer {
	apart := container.NewGridWithColumns(2, v.left, v.right)
	r := &renderer{v: v, apart: apart}
	r.Refresh()
	return r
}

type renderer struct {
	v     *View
	apart *fyne.Container
}

func (r *renderer) Layout(s fyne.Size) {
	r.v.raster.Resize(s)
	r.apart.Resize(s)
}
func (r *renderer) MinSize() fyne.Size { return r.v.min }
func (r *renderer) Refresh() {
	r.v.raster.Hidden = r.v.SideBySide
	r.apart.Hidden = !r.v.SideBySide
	r.v.raster.Refresh()
	r.apart.Refresh()
}
func (r *renderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.v.raster, r.apart} }
func (r *renderer) Destroy()                     {}
