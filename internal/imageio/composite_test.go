package imageio

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func solid(w, h int, c color.NRGBA) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{c.R, c.G, c.B, c.A})
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// Where the mask keeps the image, the original's pixels come back; where
// it was painted, the result stays; a half-transparent edge blends them.
func TestKeepUnmaskedPutsTheProtectedPixelsBack(t *testing.T) {
	original := solid(4, 1, color.NRGBA{0, 0, 255, 255})
	result := solid(4, 1, color.NRGBA{255, 0, 0, 255})
	m := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	m.SetNRGBA(0, 0, color.NRGBA{A: 0})   // painted: may change
	m.SetNRGBA(1, 0, color.NRGBA{A: 128}) // a soft edge
	m.SetNRGBA(2, 0, color.NRGBA{A: 255}) // kept
	m.SetNRGBA(3, 0, color.NRGBA{A: 255})
	var mb bytes.Buffer
	png.Encode(&mb, m)
	out, err := KeepUnmasked(result, original, mb.Bytes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(bytes.NewReader(out))
	at := func(x int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, 0)).(color.NRGBA) }
	if c := at(0); c.R != 255 || c.B != 0 {
		t.Errorf("the painted pixel is %v, want the result's red", c)
	}
	if c := at(2); c.R != 0 || c.B != 255 {
		t.Errorf("the kept pixel is %v, want the original's blue", c)
	}
	if c := at(1); c.R < 100 || c.R > 155 || c.B < 100 || c.B > 155 {
		t.Errorf("the soft edge is %v, want a blend", c)
	}
	// Another shape: nothing to match, and the error says so.
	other := solid(8, 4, color.NRGBA{255, 0, 0, 255})
	var shape *ShapeError
	if _, err := KeepUnmasked(other, original, mb.Bytes(), 0); !errors.As(err, &shape) || !strings.Contains(err.Error(), "Match the first image") {
		t.Errorf("a result of another shape: %v", err)
	}
}

// A result of another size but the same shape is scaled onto the
// original; across the feather the original gives way to the result
// monotonically; outside the mask the original is exact, and deep in the
// painted area the result is.
func TestKeepUnmaskedScalesAndFeathers(t *testing.T) {
	const w, h, edge, feather = 96, 16, 40, 12
	orig := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			orig.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y * 9), 255, 255})
		}
	}
	result := image.NewNRGBA(image.Rect(0, 0, 2*w, 2*h)) // twice the size
	for i := 0; i < len(result.Pix); i += 4 {
		copy(result.Pix[i:], []byte{250, 10, 0, 255})
	}
	keep := image.NewAlpha(orig.Rect)
	for y := range h {
		for x := range edge {
			keep.SetAlpha(x, y, color.Alpha{255})
		}
	}
	out, err := Composite(result, orig, keep, feather)
	if err != nil {
		t.Fatal(err)
	}
	if out.Rect.Size() != orig.Rect.Size() {
		t.Fatalf("composite is %v, want the original's %v", out.Rect.Size(), orig.Rect.Size())
	}
	for y := range h {
		prevB := 256
		for x := range w {
			got, o := out.NRGBAAt(x, y), orig.NRGBAAt(x, y)
			switch {
			case x < edge && got != o:
				t.Fatalf("(%d,%d) kept by the mask is %v, want the original %v", x, y, got, o)
			case x >= edge+feather+1 && got != (color.NRGBA{250, 10, 0, 255}):
				t.Fatalf("(%d,%d) deep in the painted area is %v, want the result", x, y, got)
			}
			// The original's blue fades out and never comes back.
			if int(got.B) > prevB {
				t.Fatalf("(%d,%d): blue %d after %d: the feather is not monotonic", x, y, got.B, prevB)
			}
			prevB = int(got.B)
		}
		if b := out.NRGBAAt(edge+1, y).B; b == 0 || b == 255 {
			t.Errorf("row %d: no blend just inside the painted area (blue %d)", y, b)
		}
	}
	if Feather(keep, 0) != keep {
		t.Error("feather 0 changed the mask")
	}
}

// A padded first input's result is cropped back to the picture's frame,
// its kept pixels the original's.
func TestKeepUnmaskedInCropsToTheFrame(t *testing.T) {
	original := solid(90, 60, color.NRGBA{0, 0, 255, 255})
	result := solid(1536, 1024, color.NRGBA{255, 0, 0, 255}) // scaled down onto 90x60
	m := image.NewNRGBA(image.Rect(0, 0, 90, 60))
	for y := 0; y < 60; y++ {
		for x := 0; x < 90; x++ {
			if x >= 45 { // the right half is kept
				m.SetNRGBA(x, y, color.NRGBA{A: 255})
			}
		}
	}
	var mb bytes.Buffer
	png.Encode(&mb, m)
	out, err := KeepUnmaskedIn(result, original, mb.Bytes(), 0, image.Rect(5, 0, 85, 60))
	if err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(bytes.NewReader(out))
	if img.Bounds().Size() != image.Pt(80, 60) {
		t.Fatalf("cropped to %v, want 80x60", img.Bounds())
	}
	b := img.Bounds()
	if c := color.NRGBAModel.Convert(img.At(b.Min.X+79, b.Min.Y+10)).(color.NRGBA); c.B != 255 {
		t.Errorf("a kept pixel is %v", c)
	}
	if c := color.NRGBAModel.Convert(img.At(b.Min.X, b.Min.Y+10)).(color.NRGBA); c.R != 255 {
		t.Errorf("a painted pixel is %v", c)
	}
}

// featherWhole is Feather as it was, blurring the whole picture: the
// reference the banded Feather must equal.
func featherWhole(keep *image.Alpha, radius int) *image.Alpha {
	r := max(1, radius/2)
	w, h := keep.Rect.Dx(), keep.Rect.Dy()
	a := make([]uint16, w*h)
	b := make([]uint16, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a[y*w+x] = uint16(keep.Pix[y*keep.Stride+x])
		}
	}
	for range 2 {
		boxBlur(a, b, w, h, r, 1, w)
		boxBlur(b, a, h, w, r, w, 1)
	}
	out := image.NewAlpha(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			out.Pix[y*out.Stride+x] = max(keep.Pix[y*keep.Stride+x], uint8(a[y*w+x]))
		}
	}
	return out
}

// Feather blurs only around what may change, and gives exactly what
// blurring the whole picture gave: for a mask in the middle, one at the
// picture's edge, scattered specks, nothing to change, and all of it.
func TestFeatherOnlyAroundTheChangeIsTheSame(t *testing.T) {
	const w, h = 300, 200
	masks := map[string]func(x, y int) bool{
		"middle":  func(x, y int) bool { return x > 100 && x < 200 && y > 60 && y < 140 },
		"edge":    func(x, y int) bool { return x < 30 || y > 190 },
		"specks":  func(x, y int) bool { return (x*7+y*13)%97 == 0 },
		"nothing": func(x, y int) bool { return false },
		"all":     func(x, y int) bool { return true },
	}
	for name, changes := range masks {
		keep := image.NewAlpha(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if !changes(x, y) {
					keep.Pix[y*keep.Stride+x] = 255
				}
			}
		}
		for _, radius := range []int{2, 8, 24} {
			if got, want := Feather(keep, radius), featherWhole(keep, radius); !bytes.Equal(got.Pix, want.Pix) {
				t.Errorf("%s at radius %d: the banded feather differs from the whole", name, radius)
			}
		}
	}
}
