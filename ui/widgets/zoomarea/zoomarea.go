// Package zoomarea is the zoom and scroll Easel's image widgets share
// (the mask painter, the large view): a viewport.View kept in step with
// a container.Scroll, fitted until the user zooms, zoomed about the
// pointer by Ctrl+wheel and about the centre by Ctrl+=, Ctrl+-, Ctrl+0
// (fit) and Ctrl+1 (100 %). It knows nothing of the app.
package zoomarea

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"

	"easel/internal/viewport"
)

// Area is a zoomed, scrolled image area.
type Area struct {
	// View is the zoom and the offset; Fitting keeps the image whole as
	// the area changes, until the user zooms.
	View    viewport.View
	Fitting bool
	// Scroll holds the content: the image drawn at View.Zoom.
	Scroll *container.Scroll
	owner  fyne.CanvasObject
	// OnZoom is told after every change of the zoom.
	OnZoom func()
}

// New is an area scrolling content, inside the widget owner (whose
// canvas gives the screen's scale).
func New(owner, content fyne.CanvasObject) *Area {
	return &Area{Fitting: true, Scroll: container.NewScroll(content), owner: owner}
}

// SetSize is a new image's size: it is shown whole.
func (a *Area) SetSize(p image.Point) {
	a.View.Size = p
	a.Fitting = true
	a.Apply(a.View.Fit(), a.View.AreaW/2, a.View.AreaH/2)
}

// Scale is the screen's scale (device pixels per unit).
func (a *Area) Scale() float64 {
	if c := fyne.CurrentApp().Driver().CanvasForObject(a.owner); c != nil {
		return float64(c.Scale())
	}
	return 1
}

// Percent is the zoom as people say it: 100 is one image pixel per
// screen pixel.
func (a *Area) Percent() float64 { return 100 * a.View.Zoom / viewport.Actual(a.Scale()) }

// Apply sets the zoom, keeping the pixel at (ax, ay) of the area where
// it is, and scrolls to match.
func (a *Area) Apply(z, ax, ay float64) {
	a.View.OffX, a.View.OffY = float64(a.Scroll.Offset.X), float64(a.Scroll.Offset.Y)
	a.View = a.View.ZoomAt(z, ax, ay)
	// The content's size is read from View (its MinSize), and the
	// scroll's Refresh lays it out at that size and then refreshes it:
	// once, not twice.
	a.Scroll.Refresh()
	a.Scroll.ScrollToOffset(fyne.NewPos(float32(a.View.OffX), float32(a.View.OffY)))
	if a.OnZoom != nil {
		a.OnZoom()
	}
}

// ZoomBy zooms by f about the area's centre.
func (a *Area) ZoomBy(f float64) {
	a.Fitting = false
	a.Apply(a.View.Zoom*f, a.View.AreaW/2, a.View.AreaH/2)
}

// ZoomIn and ZoomOut take one step of the zoom buttons and Ctrl+=/-.
func (a *Area) ZoomIn()  { a.ZoomBy(viewport.ZoomStep) }
func (a *Area) ZoomOut() { a.ZoomBy(1 / viewport.ZoomStep) }

// Fit shows the whole image, and keeps it whole as the area changes.
func (a *Area) Fit() {
	a.Fitting = true
	a.Apply(a.View.Fit(), a.View.AreaW/2, a.View.AreaH/2)
}

// Actual shows one image pixel per screen pixel.
func (a *Area) Actual() {
	a.Fitting = false
	a.Apply(viewport.Actual(a.Scale()), a.View.AreaW/2, a.View.AreaH/2)
}

// Resize follows a new size of the area: a fitted image is fitted again.
func (a *Area) Resize(s fyne.Size) {
	a.Scroll.Resize(s)
	if float64(s.Width) == a.View.AreaW && float64(s.Height) == a.View.AreaH {
		return
	}
	a.View.AreaW, a.View.AreaH = float64(s.Width), float64(s.Height)
	z := a.View.Zoom
	if a.Fitting {
		z = a.View.Fit()
	}
	a.Apply(z, a.View.AreaW/2, a.View.AreaH/2)
}

// Wheel zooms about the pointer with Ctrl (or Super) among mods, and
// pans otherwise; e is in the content's coordinates.
func (a *Area) Wheel(e *fyne.ScrollEvent, mods fyne.KeyModifier) {
	if mods&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 {
		a.Scroll.Scrolled(e)
		return
	}
	f := viewport.ZoomStep
	if e.Scrolled.DY < 0 {
		f = 1 / f
	}
	a.Fitting = false
	a.Apply(a.View.Zoom*f, float64(e.Position.X-a.Scroll.Offset.X), float64(e.Position.Y-a.Scroll.Offset.Y))
}

// Shortcut zooms for Ctrl+= (or Ctrl++), Ctrl+-, Ctrl+0 and Ctrl+1, and
// reports whether s was one of them.
func (a *Area) Shortcut(s fyne.Shortcut) bool {
	c, ok := s.(*desktop.CustomShortcut)
	if !ok || c.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 {
		return false
	}
	switch c.KeyName {
	case fyne.KeyEqual, fyne.KeyPlus:
		a.ZoomBy(viewport.ZoomStep)
	case fyne.KeyMinus:
		a.ZoomBy(1 / viewport.ZoomStep)
	case fyne.Key0:
		a.Fit()
	case fyne.Key1:
		a.Actual()
	default:
		return false
	}
	return true
}
