package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
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
	out, ok, err := KeepUnmasked(result, original, mb.Bytes())
	if err != nil || !ok {
		t.Fatal(ok, err)
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
	// Another size: nothing to match, the result is kept as it came.
	other := solid(8, 2, color.NRGBA{255, 0, 0, 255})
	if got, ok, err := KeepUnmasked(other, original, mb.Bytes()); err != nil || ok || !bytes.Equal(got, other) {
		t.Errorf("a result of another size: %v, %v", ok, err)
	}
}
