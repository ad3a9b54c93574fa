// Package viewport maps between an image's pixels and a zoomed,
// scrolled area of a window: the mask painter paints by it and the
// gallery's detail view zooms by it, so the pixel under the pointer is
// the pixel meant at any zoom and screen scale. It knows nothing of
// windows and is tested without one.
package viewport

import (
	"image"
	"math"
)

// MinZoom and MaxZoom bound the zoom, in screen units per image
// pixel: a 16,000-pixel image still fits a small window, and a single
// pixel can be painted at 64 units wide.
const (
	MinZoom = 1.0 / 64
	MaxZoom = 64.0
)

// ZoomStep is the factor one zoom in or out (Ctrl+=, Ctrl+-, one notch
// of Ctrl+wheel) multiplies by.
const ZoomStep = 1.25

// View places an image of Size pixels in an area of Area units (a
// window's logical units, which the screen's scale turns into device
// pixels) at Zoom units per image pixel, scrolled by Offset. The image is
// centred while it is smaller than the area and scrolls once it is
// larger. The painter draws by it and maps the pointer by it, so the
// pixel under the pointer is the pixel painted at any zoom and scale.
type View struct {
	Size  image.Point
	AreaW float64
	AreaH float64
	Zoom  float64
	OffX  float64
	OffY  float64
}

// Fit is the zoom at which the whole image fits the area.
func (v View) Fit() float64 {
	if v.Size.X <= 0 || v.Size.Y <= 0 || v.AreaW <= 0 || v.AreaH <= 0 {
		return 1
	}
	return clampZoom(math.Min(v.AreaW/float64(v.Size.X), v.AreaH/float64(v.Size.Y)))
}

// Actual is the zoom at which one image pixel is one device pixel on a
// screen of the given scale (Fyne's canvas scale): "100 %".
func Actual(scale float64) float64 {
	if scale <= 0 {
		scale = 1
	}
	return clampZoom(1 / scale)
}

func clampZoom(z float64) float64 { return math.Max(MinZoom, math.Min(MaxZoom, z)) }

// Content is the size, in units, of the scrolled content: the image at
// its zoom, or the area where that is larger.
func (v View) Content() (w, h float64) {
	return math.Max(v.AreaW, float64(v.Size.X)*v.Zoom), math.Max(v.AreaH, float64(v.Size.Y)*v.Zoom)
}

// Origin is where the image's top-left corner sits in the content.
func (v View) Origin() (x, y float64) {
	cw, ch := v.Content()
	return (cw - float64(v.Size.X)*v.Zoom) / 2, (ch - float64(v.Size.Y)*v.Zoom) / 2
}

// ToImage maps a position in the content to the image, in pixels with
// their fraction: pixel (x, y) spans [x, x+1).
func (v View) ToImage(cx, cy float64) (x, y float64) {
	ox, oy := v.Origin()
	return (cx - ox) / v.Zoom, (cy - oy) / v.Zoom
}

// ToContent maps an image position to the content.
func (v View) ToContent(x, y float64) (cx, cy float64) {
	ox, oy := v.Origin()
	return ox + x*v.Zoom, oy + y*v.Zoom
}

// ZoomAt is v at zoom z, scrolled so the image point under (ax, ay) in
// the area (the pointer, or the area's centre for a key) stays under it.
func (v View) ZoomAt(z, ax, ay float64) View {
	ix, iy := v.ToImage(v.OffX+ax, v.OffY+ay)
	n := v
	n.Zoom = clampZoom(z)
	cx, cy := n.ToContent(ix, iy)
	n.OffX, n.OffY = cx-ax, cy-ay
	return n.Clamp()
}

// Clamp keeps the offset within the content.
func (v View) Clamp() View {
	cw, ch := v.Content()
	v.OffX = math.Max(0, math.Min(cw-v.AreaW, v.OffX))
	v.OffY = math.Max(0, math.Min(ch-v.AreaH, v.OffY))
	return v
}

// Visible is the part of the image in the area, in whole pixels.
func (v View) Visible() image.Rectangle {
	x0, y0 := v.ToImage(v.OffX, v.OffY)
	x1, y1 := v.ToImage(v.OffX+v.AreaW, v.OffY+v.AreaH)
	r := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1)))
	return r.Intersect(image.Rectangle{Max: v.Size})
}
