package outpaint

import (
	"image"
	"image/color"
	"testing"
)

// noisy is an image whose every pixel differs from its neighbours, so a
// pixel moved or blended shows.
func noisy(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i*31 + i/7)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	return img
}

// At every anchor the original comes back exact, the seam blends only
// into the new area, and beyond the seam the result is the service's.
func TestRestoreKeepsTheOriginalExactAtEveryAnchor(t *testing.T) {
	const feather = 8
	orig := noisy(64, 48)
	size := image.Pt(160, 96)
	painted := color.NRGBA{200, 10, 90, 255}
	for a := TopLeft; a <= BottomRight; a++ {
		p, err := Expand(orig, size, a)
		if err != nil {
			t.Fatal(err)
		}
		if p.At.Size() != orig.Rect.Size() || !p.At.In(p.Canvas.Rect) || !p.Grows() {
			t.Fatalf("%s: placed at %v on %v", a, p.At, p.Canvas.Rect)
		}
		result := image.NewNRGBA(p.Canvas.Rect)
		for y := 0; y < size.Y; y++ {
			for x := 0; x < size.X; x++ {
				result.SetNRGBA(x, y, painted)
			}
		}
		out, err := p.Restore(result, feather)
		if err != nil {
			t.Fatal(err)
		}
		blended := 0
		for y := 0; y < size.Y; y++ {
			for x := 0; x < size.X; x++ {
				got := out.NRGBAAt(x, y)
				pt := image.Pt(x, y)
				switch {
				case pt.In(p.At):
					if want := orig.NRGBAAt(x-p.At.Min.X, y-p.At.Min.Y); got != want {
						t.Fatalf("%s: original pixel (%d,%d) is %v, want %v", a, x, y, got, want)
					}
				case distance(pt, p.At) > feather+1:
					if got != painted {
						t.Fatalf("%s: new pixel (%d,%d) far from the seam is %v, want the service's %v", a, x, y, got, painted)
					}
				default:
					if got != painted {
						blended++
					}
				}
			}
		}
		if blended == 0 {
			t.Errorf("%s: the seam is not feathered", a)
		}
	}
}

// distance is how far p lies outside r, in the larger of the two axes.
func distance(p image.Point, r image.Rectangle) int {
	dx := max(r.Min.X-p.X, p.X-(r.Max.X-1), 0)
	dy := max(r.Min.Y-p.Y, p.Y-(r.Max.Y-1), 0)
	return max(dx, dy)
}

// The anchors place the original where their names say.
func TestPlace(t *testing.T) {
	src, dst := image.Pt(10, 10), image.Pt(30, 20)
	for a, want := range map[Anchor]image.Point{
		TopLeft: {0, 0}, Top: {10, 0}, TopRight: {20, 0}, Left: {0, 5}, Center: {10, 5},
		Right: {20, 5}, BottomLeft: {0, 10}, Bottom: {10, 10}, BottomRight: {20, 10},
	} {
		if got := Place(src, dst, a).Min; got != want {
			t.Errorf("%s: at %v, want %v", a, got, want)
		}
		if back, err := ParseAnchor(a.String()); err != nil || back != a {
			t.Errorf("%s does not read back: %v %v", a, back, err)
		}
	}
	if _, err := ParseAnchor("middle"); err == nil {
		t.Error("an unknown anchor was taken")
	}
}

// The mask lets the service paint the new area only, in the edit
// endpoint's terms: transparent where it may change.
func TestTheMaskPaintsOnlyTheNewArea(t *testing.T) {
	p, err := ExpandBy(noisy(20, 20), Margins{Left: 5, Top: 0, Right: 7, Bottom: 3})
	if err != nil {
		t.Fatal(err)
	}
	if p.Canvas.Rect.Size() != image.Pt(32, 23) || p.At.Min != image.Pt(5, 0) {
		t.Fatalf("canvas %v, at %v", p.Canvas.Rect, p.At)
	}
	for y := 0; y < 23; y++ {
		for x := 0; x < 32; x++ {
			inside := image.Pt(x, y).In(p.At)
			if a := p.Mask.NRGBAAt(x, y).A; (a == 255) != inside || (a == 0) == inside {
				t.Fatalf("mask alpha %d at (%d,%d), inside %v", a, x, y, inside)
			}
			if c := p.Canvas.NRGBAAt(x, y).A; !inside && c != 0 {
				t.Fatalf("the new area is not transparent at (%d,%d)", x, y)
			}
		}
	}
	canvas, mask, err := p.PNGs()
	if err != nil || len(canvas) == 0 || len(mask) == 0 {
		t.Fatal(err)
	}
}

// A picture larger than the canvas shrinks to fit it, and says so.
func TestALargerPictureShrinksToFit(t *testing.T) {
	p, err := Expand(noisy(300, 100), image.Pt(200, 200), Center)
	if err != nil {
		t.Fatal(err)
	}
	if p.Scaled != image.Pt(200, 66) || p.At != image.Rect(0, 67, 200, 133) {
		t.Errorf("scaled %v, at %v", p.Scaled, p.At)
	}
}

// ForRatio widens or heightens to the shape asked, never crops.
func TestForRatio(t *testing.T) {
	for _, c := range []struct {
		src        image.Point
		w, h, mult int
		want       image.Point
	}{
		{image.Pt(1024, 1024), 16, 9, 16, image.Pt(1824, 1024)},
		{image.Pt(1024, 1024), 9, 16, 16, image.Pt(1024, 1824)},
		{image.Pt(800, 600), 1, 1, 1, image.Pt(800, 800)},
		{image.Pt(1536, 1024), 3, 2, 1, image.Pt(1536, 1024)},
	} {
		if got := ForRatio(c.src, c.w, c.h, c.mult); got != c.want {
			t.Errorf("%v at %d:%d = %v, want %v", c.src, c.w, c.h, got, c.want)
		}
	}
}

// A named shape's canvas holds the picture, grows as asked and stays
// within MaxSide.
func TestCanvas(t *testing.T) {
	landscape, banner := Shapes()[0], Shapes()[3]
	if got := Canvas(image.Pt(1024, 1024), landscape, 0, 16); got != image.Pt(1536, 1024) {
		t.Errorf("a square to 3:2 is %v", got)
	}
	if got := Canvas(image.Pt(1024, 1024), landscape, 0.5, 16); got != image.Pt(2304, 1536) {
		t.Errorf("grown by half: %v", got)
	}
	if got := Canvas(image.Pt(4000, 4000), banner, 0, 16); got.X != MaxSide || got.Y > got.X {
		t.Errorf("a large square to 16:9 is %v", got)
	}
}

// Rounding to a multiple never makes the canvas smaller than the picture.
func TestCanvasHoldsThePicture(t *testing.T) {
	for _, s := range Shapes() {
		src := image.Pt(1000, 1000)
		if c := Canvas(src, s, 0, 16); c.X < src.X || c.Y < src.Y || c.X%16 != 0 || c.Y%16 != 0 {
			t.Errorf("%s: %v", s.Name, c)
		}
	}
}

// A 4:3 picture padded to 3:2 keeps its pixels in the middle, repeats
// its edges outward, and its mask's padding is protected.
func TestPadToShape(t *testing.T) {
	img := noisy(80, 60)
	m := image.NewNRGBA(image.Rect(0, 0, 80, 60)) // all transparent: all may change
	out, mask, at := PadToShape(img, m, image.Pt(1536, 1024))
	if out.Rect.Size() != image.Pt(90, 60) || at != image.Rect(5, 0, 85, 60) {
		t.Fatalf("padded to %v, picture at %v", out.Rect, at)
	}
	if out.NRGBAAt(0, 10) != img.NRGBAAt(0, 10) || out.NRGBAAt(89, 10) != img.NRGBAAt(79, 10) || out.NRGBAAt(40, 30) != img.NRGBAAt(35, 30) {
		t.Error("the padding does not repeat the edges, or the picture moved")
	}
	if mask.NRGBAAt(2, 10).A != 255 || mask.NRGBAAt(40, 10).A != 0 {
		t.Errorf("mask alpha in the padding %d, in the picture %d", mask.NRGBAAt(2, 10).A, mask.NRGBAAt(40, 10).A)
	}
}
