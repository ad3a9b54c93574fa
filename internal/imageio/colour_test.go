package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"

	"easel/internal/testsupport/fixture"
)

func fill(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for p := 0; p < len(img.Pix); p += 4 {
		copy(img.Pix[p:], []byte{c.R, c.G, c.B, c.A})
	}
	return img
}

func profiledPNG(t *testing.T, img image.Image, profile []byte, name string) []byte {
	t.Helper()
	b := fixture.PNG(t, img)
	if profile == nil {
		return b
	}
	out, ok := WithProfile(b, profile, name)
	if !ok {
		t.Fatal("no profile embedded")
	}
	return out
}

// A result that declares its own space (a route that answers in Display
// P3) is read in it: the kept copy of an sRGB original shows the
// result's colour in sRGB where the mask let it change, and the
// original's own numbers where it protected them.
func TestAResultInItsOwnSpaceIsReadInIt(t *testing.T) {
	p3, err := os.ReadFile("../colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 64, 32
	original := fill(w, h, color.NRGBA{10, 20, 30, 255})
	result := fill(w, h, color.NRGBA{200, 100, 50, 255})
	mask := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w / 2 {
			mask.SetNRGBA(x, y, color.NRGBA{A: 255}) // the left half is kept
		}
	}
	resultData := profiledPNG(t, result, p3, "Display P3")
	kept, err := Kept(PictureOf(resultData), PictureOf(profiledPNG(t, original, nil, "")), PictureOf(profiledPNG(t, mask, nil, "")), 0, image.Rectangle{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := kept.Bytes()
	if _, _, ok := EmbeddedProfile(data); ok {
		t.Error("the kept copy of an sRGB original carries a profile")
	}
	img, _ := png.Decode(bytes.NewReader(data))
	want, _ := SpaceOf(resultData).ToSRGB(result)
	if got := color.NRGBAModel.Convert(img.At(w-2, 5)); got != want.NRGBAAt(0, 0) {
		t.Errorf("the changed area is %v, the result's colour in sRGB is %v", got, want.NRGBAAt(0, 0))
	}
	if got := color.NRGBAModel.Convert(img.At(2, 5)); got != original.NRGBAAt(0, 0) {
		t.Errorf("the protected area is %v, the original's %v", got, original.NRGBAAt(0, 0))
	}
}
