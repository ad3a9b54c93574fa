package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func uniform(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{c.R, c.G, c.B, c.A})
	}
	return img
}

// Left of the split is before, right of it after (fitted onto before's
// frame even at another size), with a line at the split.
func TestSplitView(t *testing.T) {
	before := uniform(200, 100, color.NRGBA{255, 0, 0, 255})
	after := uniform(400, 200, color.NRGBA{0, 0, 255, 255})
	v := SplitView(before, after, 400, 400, 0.25)
	at := func(x, y int) color.RGBA { return v.RGBAAt(x, y) }
	// Fitted: 400x200, centred at y 100..300; the split at x 100.
	if c := at(50, 200); c.R != 255 || c.B != 0 {
		t.Errorf("left of the split: %v, want before's red", c)
	}
	if c := at(300, 200); c.B != 255 || c.R != 0 {
		t.Errorf("right of the split: %v, want after's blue", c)
	}
	if c := at(100, 200); c.R != 255 || c.G != 255 {
		t.Errorf("at the split: %v, want the white line", c)
	}
	if c := at(50, 50); c.A != 0 {
		t.Errorf("outside the frame: %v, want nothing", c)
	}
	if all := SplitView(before, after, 100, 50, 0); all.RGBAAt(10, 25).B != 255 {
		t.Error("split 0 does not show all of after")
	}
}

// A result of another shape is not stretched into the original's frame
// (issue 40, item 6): a 1000x300 after beside a 3:2 before keeps 10:3.
func TestSplitViewFitsEachAtItsOwnAspect(t *testing.T) {
	before := image.NewNRGBA(image.Rect(0, 0, 300, 200))
	after := image.NewNRGBA(image.Rect(0, 0, 1000, 300))
	for i := range after.Pix {
		after.Pix[i] = 255 // white, opaque
	}
	out := SplitView(before, after, 600, 400, 0) // all after
	// Fitted at 10:3 in 600x400: 600x180, from y 110.
	if _, _, _, a := out.At(300, 50).RGBA(); a != 0 {
		t.Error("the after was stretched over the whole frame")
	}
	if r, _, _, _ := out.At(300, 200).RGBA(); r>>8 != 255 {
		t.Error("the after is not shown in its own frame")
	}
}

func TestCropPNGCutsTheFrameOut(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	got, err := CropPNG(buf.Bytes(), image.Rect(5, 2, 35, 12))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := png.DecodeConfig(bytes.NewReader(got))
	if c.Width != 30 || c.Height != 10 {
		t.Errorf("cropped to %dx%d", c.Width, c.Height)
	}
	if _, err := CropPNG(buf.Bytes(), image.Rect(50, 50, 60, 60)); err == nil {
		t.Error("cropped outside the image")
	}
}
