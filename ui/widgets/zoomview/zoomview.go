// Package zoomview shows an image to look at closely: fitted, at 100 %
// (one image pixel per screen pixel), or zoomed in and out about the
// pointer (Ctrl+wheel, Ctrl+= and Ctrl+-; Ctrl+0 fits, Ctrl+1 is 100 %),
// panned with the wheel, the scroll bars or a drag, over a checkerboard
// where it is transparent. The mapping is internal/viewport's; the widget
// knows nothing of the app.
package zoomview

import (
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"easel/ui/widgets/zoomarea"
)

// modifiers is the keyboard's modifiers now; tests replace it.
var modifiers = func() fyne.KeyModifier {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// View is a zoomable image.
type View struct {
	widget.BaseWidget
	// OnZoom is told the zoom, as a share of 100 %, when it changes.
	OnZoom func(percent float64)
	// OnKey is told the keys the view does not use itself (Esc, arrows),
	// so that whoever shows it can close it or move to the next image.
	OnKey func(*fyne.KeyEvent)

	img     image.Image
	min     fyne.Size
	area    *zoomarea.Area
	surface *surface
}

// New makes an empty view that asks for at least min.
func New(min fyne.Size) *View {
	v := &View{min: min}
	v.surface = newSurface(v)
	v.area = zoomarea.New(v, v.surface)
	v.area.OnZoom = func() {
		if v.OnZoom != nil {
			v.OnZoom(v.area.Percent())
		}
	}
	v.ExtendBaseWidget(v)
	return v
}

// SetImage shows img whole; opaque skips the checkerboard.
func (v *View) SetImage(img image.Image, opaque bool) {
	v.img = img
	v.surface.pic.Image = img
	v.surface.checker.Hidden = img == nil || opaque
	v.surface.pic.Refresh()
	size := image.Point{}
	if img != nil {
		size = img.Bounds().Size()
	}
	v.area.SetSize(size)
}

// Image is the image shown.
func (v *View) Image() image.Image { return v.img }

// Zoom is the zoom, in screen units per image pixel.
func (v *View) Zoom() float64 { return v.area.View.Zoom }

// Percent is the zoom as people say it: 100 is one image pixel per
// screen pixel.
func (v *View) Percent() float64 { return v.area.Percent() }

// Fit shows the whole image, and keeps it whole as the area changes.
func (v *View) Fit() { v.area.Fit() }

// Actual shows one image pixel per screen pixel.
func (v *View) Actual() { v.area.Actual() }

// ZoomBy zooms by f about the area's centre.
func (v *View) ZoomBy(f float64) { v.area.ZoomBy(f) }

// FocusGained implements fyne.Focusable.
func (v *View) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (v *View) FocusLost() {}

// TypedRune implements fyne.Focusable.
func (v *View) TypedRune(rune) {}

// TypedKey hands keys on to OnKey.
func (v *View) TypedKey(k *fyne.KeyEvent) {
	if v.OnKey != nil {
		v.OnKey(k)
	}
}

// TypedShortcut zooms: Ctrl+= in, Ctrl+- out, Ctrl+0 fit, Ctrl+1 100 %.
func (v *View) TypedShortcut(s fyne.Shortcut) { v.area.Shortcut(s) }

// ClaimShortcut takes a shortcut the window also has (Ctrl+1 is 100 %
// here and Chat for the window) while the view has the keys, and reports
// whether it did: the window's menu asks before acting.
func (v *View) ClaimShortcut(s fyne.Shortcut) bool { return v.area.Shortcut(s) }

// MinSize implements fyne.Widget.
func (v *View) MinSize() fyne.Size { return v.min }

// CreateRenderer implements fyne.Widget.
func (v *View) CreateRenderer() fyne.WidgetRenderer { return &renderer{v: v} }

type renderer struct{ v *View }

func (r *renderer) Layout(s fyne.Size)           { r.v.area.Resize(s) }
func (r *renderer) MinSize() fyne.Size           { return r.v.min }
func (r *renderer) Refresh()                     { r.v.area.Scroll.Refresh() }
func (r *renderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.v.area.Scroll} }
func (r *renderer) Destroy()                     {}

// surface is the scrolled content: the image at its zoom over its
// checkerboard. A drag pans; the wheel zooms or pans.
type surface struct {
	widget.BaseWidget
	v       *View
	pic     *canvas.Image
	checker *canvas.Raster
}

func newSurface(v *View) *surface {
	s := &surface{v: v, pic: &canvas.Image{FillMode: canvas.ImageFillStretch}}
	s.checker = canvas.NewRasterWithPixels(func(x, y, w, h int) color.Color {
		if (x/8+y/8)%2 == 0 {
			return color.NRGBA{0xcc, 0xcc, 0xcc, 0xff}
		}
		return color.NRGBA{0x99, 0x99, 0x99, 0xff}
	})
	s.checker.Hide()
	s.ExtendBaseWidget(s)
	return s
}

// Dragged implements fyne.Draggable: the image follows the pointer.
func (s *surface) Dragged(e *fyne.DragEvent) {
	scroll := s.v.area.Scroll
	scroll.ScrollToOffset(scroll.Offset.Subtract(fyne.NewPos(e.Dragged.DX, e.Dragged.DY)))
}

// DragEnd implements fyne.Draggable.
func (s *surface) DragEnd() {}

// Scrolled implements fyne.Scrollable.
func (s *surface) Scrolled(e *fyne.ScrollEvent) { s.v.area.Wheel(e, modifiers()) }

// Tapped implements fyne.Tappable: the view takes the keys.
func (s *surface) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(s.v); c != nil {
		c.Focus(s.v)
	}
}

// MinSize is the image at its zoom.
func (s *surface) MinSize() fyne.Size {
	vw := s.v.area.View
	return fyne.NewSize(float32(float64(vw.Size.X)*vw.Zoom), float32(float64(vw.Size.Y)*vw.Zoom))
}

// CreateRenderer implements fyne.Widget.
func (s *surface) CreateRenderer() fyne.WidgetRenderer { return &surfaceRenderer{s: s} }

type surfaceRenderer struct{ s *surface }

func (r *surfaceRenderer) Layout(fyne.Size) {
	s := r.s
	vw := s.v.area.View
	ox, oy := vw.Origin()
	size := fyne.NewSize(float32(float64(vw.Size.X)*vw.Zoom), float32(float64(vw.Size.Y)*vw.Zoom))
	s.pic.ScaleMode = canvas.ImageScaleSmooth
	if vw.Zoom*s.v.area.Scale() >= 2 {
		s.pic.ScaleMode = canvas.ImageScalePixels
	}
	for _, o := range []fyne.CanvasObject{s.pic, s.checker} {
		o.Move(fyne.NewPos(float32(ox), float32(oy)))
		o.Resize(size)
	}
}
func (r *surfaceRenderer) MinSize() fyne.Size { return r.s.MinSize() }
func (r *surfaceRenderer) Refresh() {
	r.Layout(r.s.Size())
	canvas.Refresh(r.s)
}
func (r *surfaceRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.s.checker, r.s.pic}
}
func (r *surfaceRenderer) Destroy() {}
