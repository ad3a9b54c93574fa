package imageio

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"testing"

	"easel/internal/testsupport/fixture"
)

func transparentPNG(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 32, 16))
	img.Set(1, 1, color.NRGBA{255, 0, 0, 255})
	return fixture.PNG(t, img)
}

func TestExportEveryFormat(t *testing.T) {
	orig := transparentPNG(t)
	same, _ := Export(orig, "png", "png", 80)
	if !bytes.Equal(same, orig) {
		t.Error("a PNG exported as PNG was re-encoded")
	}
	for _, tc := range []struct {
		to      string
		quality int
	}{{"jpeg", 80}, {"webp", 70}, {"webp", 100}} {
		out, err := Export(orig, "png", tc.to, tc.quality)
		if err != nil {
			t.Fatalf("%s: %v", tc.to, err)
		}
		img, format, err := image.Decode(bytes.NewReader(out))
		if err != nil || format != tc.to || img.Bounds().Dx() != 32 {
			t.Fatalf("%s q%d: decoded as %q (%v)", tc.to, tc.quality, format, err)
		}
		if tc.to == "jpeg" {
			r, g, b, _ := img.At(20, 10).RGBA()
			if r>>8 < 240 || g>>8 < 240 || b>>8 < 240 {
				t.Errorf("transparent pixels not white in JPEG: %d %d %d", r>>8, g>>8, b>>8)
			}
		}
		if tc.to == "webp" && tc.quality == 100 {
			if _, _, _, a := img.At(20, 10).RGBA(); a != 0 {
				t.Error("lossless WebP lost transparency")
			}
		}
	}
	if _, err := Export(orig, "png", "gif", 90); err == nil {
		t.Error("gif accepted")
	}
	if _, err := Export([]byte("junk"), "png", "jpeg", 90); err == nil {
		t.Error("junk accepted")
	}
}

// KeepUnmasked puts the original's pixels back wherever the mask keeps
// them: services repaint the whole image, and what the user protected
// drifts (colours, text, faces). The mask is the one sent with the edit,
// transparent where the image may change. The result is first scaled to
// the original's size when their shapes agree (a *ShapeError when they do
// not), and the seam is feathered over feather pixels into the painted
// area, so outside the mask the original is exact. The output is PNG.
func KeepUnmasked(result, original, mask []byte, feather int) ([]byte, error) {
	return KeepUnmaskedIn(result, original, mask, feather, image.Rectangle{})
}

// KeepUnmaskedIn is KeepUnmasked cropped to frame (empty: no crop): the
// original's own picture when Easel padded it to a shape the model
// makes.
func KeepUnmaskedIn(result, original, mask []byte, feather int, frame image.Rectangle) ([]byte, error) {
	res, err := DecodeBounded(bytes.NewReader(result), MaxPixels)
	if err != nil {
		return nil, fmt.Errorf("the result: %w", err)
	}
	orig, err := DecodeBounded(bytes.NewReader(original), MaxPixels)
	if err != nil {
		return nil, fmt.Errorf("the first input: %w", err)
	}
	m, err := DecodeBounded(bytes.NewReader(mask), MaxPixels)
	if err != nil {
		return nil, fmt.Errorf("the mask: %w", err)
	}
	out, err := keepUnmasked(res, orig, m, feather, frame)
	if err != nil {
		return nil, err
	}
	return EncodePNG(out)
}
