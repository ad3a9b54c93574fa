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
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"easel/internal/viewport"
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

	img     image.Image
	view    viewport.View
	fit     bool
	min     fyne.Size
	scroll  *container.Scroll
	surface *surface
}

// New makes an empty view that asks for at least min.
func New(min fyne.Size) *View {
	v := &View{min: min, fit: true}
	v.surface = newSurface(v)
	v.scroll = container.NewScroll(v.surface)
	v.ExtendBaseWidget(v)
	return v
}

// SetImage shows img whole; opaque skips the checkerboard.
func (v *View) SetImage(img image.Image, opaque bool) {
	v.img = img
	v.view.Size = image.Point{}
	if img != nil {
		v.view.Size = img.Bounds().Size()
	}
	v.surface.pic.Image = img
	v.surface.checker.Hidden = img == nil || opaque
	v.surface.pic.Refresh()
	v.fit = true
	v.apply(v.view.Fit(), v.view.AreaW/2, v.view.AreaH/2)
}

// Image is the image shown.
func (v *View) Image() image.Image { return v.img }

// Zoom is the zoom, in screen units per image pixel.
func (v *View) Zoom() float64 { return v.view.Zoom }

// Percent is the zoom as people say it: 100 is one image pixel per
// screen pixel.
func (v *View) Percent() float64 { return 100 * v.view.Zoom / viewport.Actual(v.scale()) }

// Fit shows the whole image, and keeps it whole as the area changes.
func (v *View) Fit() {
	v.fit = true
	v.apply(v.view.Fit(), v.view.AreaW/2, v.view.AreaH/2)
}

// Actual shows one image pixel per screen pixel.
func (v *View) Actual() {
	v.fit = false
	v.apply(viewport.Actual(v.scale()), v.view.AreaW/2, v.view.AreaH/2)
}

// ZoomBy zooms by f about the area's centre.
func (v *View) ZoomBy(f float64) {
	v.fit = false
	v.apply(v.view.Zoom*f, v.view.AreaW/2, v.view.AreaH/2)
}

func (v *View) scale() float64 {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		return float64(c.Scale())
	}
	return 1
}

func (v *View) apply(z, ax, ay float64) {
	v.view.OffX, v.view.OffY = float64(v.scroll.Offset.X), float64(v.scroll.Offset.Y)
	v.view = v.view.ZoomAt(z, ax, ay)
	v.surface.Refresh()
	v.scroll.Refresh()
	v.scroll.ScrollToOffset(fyne.NewPos(float32(v.view.OffX), float32(v.view.OffY)))
	if v.OnZoom != nil {
		v.OnZoom(v.Percent())
	}
}

func (v *View) resized(s fyne.Size) {
	if float64(s.Width) == v.view.AreaW && float64(s.Height) == v.view.AreaH {
		return
	}
	v.view.AreaW, v.view.AreaH = float64(s.Width), float64(s.Height)
	z := v.view.Zoom
	if v.fit {
		z = v.view.Fit()
	}
	v.apply(z, v.view.AreaW/2, v.view.AreaH/2)
}

// wheel zooms about the pointer with Ctrl held, and pans otherwise.
func (v *View) wheel(e *fyne.ScrollEvent) {
	if modifiers()&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 {
		v.scroll.Scrolled(e)
		return
	}
	f := viewport.ZoomStep
	if e.Scrolled.DY < 0 {
		f = 1 / f
	}
	v.fit = false
	v.apply(v.view.Zoom*f, float64(e.Position.X-v.scroll.Offset.X), float64(e.Position.Y-v.scroll.Offset.Y))
}

// FocusGained implements fyne.Focusable.
func (v *View) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (v *View) FocusLost() {}

// TypedRune implements fyne.Focusable.
func (v *View) TypedRune(rune) {}

// TypedKey implements fyne.Focusable.
func (v *View) TypedKey(*fyne.KeyEvent) {}

// TypedShortcut zooms: Ctrl+= in, Ctrl+- out, Ctrl+0 fit, Ctrl+1 100 %.
func (v *View) TypedShortcut(s fyne.Shortcut) {
	c, ok := s.(*desktop.CustomShortcut)
	if !ok || c.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 {
		return
	}
	switch c.KeyName {
	case fyne.KeyEqual, fyne.KeyPlus:
		v.ZoomBy(viewport.ZoomStep)
	case fyne.KeyMinus:
		v.ZoomBy(1 / viewport.ZoomStep)
	case fyne.Key0:
		v.Fit()
	case fyne.Key1:
		v.Actual()
	}
}

// MinSize implements fyne.Widget.
func (v *View) MinSize() fyne.Size { return v.min }

// CreateRenderer implements fyne.Widget.
func (v *View) CreateRenderer() fyne.WidgetRenderer { return &renderer{v: v} }

type renderer struct{ v *View }

func (r *renderer) Layout(s fyne.Size) {
	r.v.scroll.Resize(s)
	r.v.resized(s)
}
func (r *renderer) MinSize() fyne.Size           { return r.v.min }
func (r *renderer) Refresh()                     { r.v.scroll.Refresh() }
func (r *renderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.v.scroll} }
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
	off := s.v.scroll.Offset.Subtract(fyne.NewPos(e.Dragged.DX, e.Dragged.DY))
	s.v.scroll.ScrollToOffset(off)
}

// DragEnd implements fyne.Draggable.
func (s *surface) DragEnd() {}

// Scrolled implements fyne.Scrollable.
func (s *surface) Scrolled(e *fyne.ScrollEvent) { s.v.wheel(e) }

// Tapped implements fyne.Tappable: the view takes the keys.
func (s *surface) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(s.v); c != nil {
		c.Focus(s.v)
	}
}

// MinSize is the image at its zoom.
func (s *surface) MinSize() fyne.Size {
	vw := s.v.view
	return fyne.NewSize(float32(float64(vw.Size.X)*vw.Zoom), float32(float64(vw.Size.Y)*vw.Zoom))
}

// CreateRenderer implements fyne.Widget.
func (s *surface) CreateRenderer() fyne.WidgetRenderer { return &surfaceRenderer{s: s} }

type surfaceRenderer struct{ s *surface }

func (r *surfaceRenderer) Layout(fyne.Size) {
	s := r.s
	vw := s.v.view
	ox, oy := vw.Origin()
	size := fyne.NewSize(float32(float64(vw.Size.X)*vw.Zoom), float32(float64(vw.Size.Y)*vw.Zoom))
	s.pic.ScaleMode = canvas.ImageScaleSmooth
	if vw.Zoom*s.v.scale() >= 2 {
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
