package viewport

import (
	"image"
	"math"
	"testing"
)

// At every zoom and screen scale, the content position of a pixel's
// centre maps back to that pixel, and the device pixel grid lines up at
// 100 %.
func TestThePointerMapsToPixelsAtAnyZoomAndScale(t *testing.T) {
	for _, scale := range []float64{1, 1.25, 1.5, 2, 2.75} {
		for _, zoom := range []float64{Actual(scale), 0.1, 0.33, 1, 3.7, 12} {
			v := View{Size: image.Pt(1000, 700), AreaW: 640, AreaH: 480, Zoom: zoom}
			for _, px := range []image.Point{{0, 0}, {1, 1}, {499, 350}, {999, 699}} {
				cx, cy := v.ToContent(float64(px.X)+0.5, float64(px.Y)+0.5)
				x, y := v.ToImage(cx, cy)
				if int(math.Floor(x)) != px.X || int(math.Floor(y)) != px.Y {
					t.Errorf("scale %v zoom %v: pixel %v maps back to (%.3f, %.3f)", scale, zoom, px, x, y)
				}
			}
		}
		// At 100 %, one image pixel is one device pixel.
		if got := Actual(scale) * scale; math.Abs(got-1) > 1e-12 {
			t.Errorf("scale %v: 100 %% is %v device pixels per image pixel", scale, got)
		}
	}
}

// A small image is centred; Fit shows all of a large one.
func TestFitAndCentre(t *testing.T) {
	v := View{Size: image.Pt(100, 50), AreaW: 400, AreaH: 400, Zoom: 1}
	if x, y := v.Origin(); x != 150 || y != 175 {
		t.Errorf("origin (%v, %v), want the image centred at (150, 175)", x, y)
	}
	big := View{Size: image.Pt(4000, 2000), AreaW: 400, AreaH: 400}
	if z := big.Fit(); z != 0.1 {
		t.Errorf("fit zoom %v, want 0.1", z)
	}
	if r := (View{Size: image.Pt(4000, 2000), AreaW: 400, AreaH: 400, Zoom: big.Fit()}).Visible(); r != image.Rect(0, 0, 4000, 2000) {
		t.Errorf("at fit the visible part is %v", r)
	}
}

// Zooming keeps the pixel under the pointer under it (once the image
// fills the area: a smaller one is centred), and the offset
// stays within the content.
func TestZoomKeepsThePixelUnderThePointer(t *testing.T) {
	v := View{Size: image.Pt(2000, 1000), AreaW: 500, AreaH: 400, Zoom: 0.5}
	ax, ay := 300.0, 100.0
	before := func(v View) (float64, float64) { return v.ToImage(v.OffX+ax, v.OffY+ay) }
	x0, y0 := before(v)
	for range 6 {
		v = v.ZoomAt(v.Zoom*ZoomStep, ax, ay)
		x, y := before(v)
		if math.Abs(x-x0) > 1e-6 || math.Abs(y-y0) > 1e-6 {
			t.Fatalf("zoom %v: the pointer is over (%v, %v), was over (%v, %v)", v.Zoom, x, y, x0, y0)
		}
	}
	cw, ch := v.Content()
	if v.OffX < 0 || v.OffY < 0 || v.OffX > cw-v.AreaW || v.OffY > ch-v.AreaH {
		t.Errorf("offset (%v, %v) outside the content %vx%v", v.OffX, v.OffY, cw, ch)
	}
	if z := v.ZoomAt(1e9, 0, 0).Zoom; z != MaxZoom {
		t.Errorf("zoom not bounded: %v", z)
	}
}
