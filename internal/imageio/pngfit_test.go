package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"easel/internal/testsupport/fixture"
)

// pngKinds are pictures of each kind a PNG stores that fitPNGFile reads
// row by row, w×h, with gradients under noise (so the encoder uses every
// filter) and, where the kind has it, alpha.
func pngKinds(w, h int) map[string]image.Image {
	photo := photograph(w, h, true)
	opaque := photograph(w, h, false)
	gray, grayA := image.NewGray(photo.Rect), image.NewNRGBA64(photo.Rect)
	rgb16, rgba16 := image.NewRGBA64(photo.Rect), image.NewNRGBA64(photo.Rect)
	pal := image.NewPaletted(photo.Rect, nil)
	for i := range 200 {
		pal.Palette = append(pal.Palette, color.NRGBA{uint8(i), uint8(255 - i), uint8(i / 2), uint8(55 + i)})
	}
	for y := range h {
		for x := range w {
			c := color.NRGBAModel.Convert(photo.At(x, y)).(color.NRGBA)
			o := opaque.RGBAAt(x, y)
			gray.SetGray(x, y, color.Gray{o.G})
			// Grey with alpha as PNG's 8-bit GA stores it: the
			// encoder writes an NRGBA64 of equal channels as such.
			grayA.SetNRGBA64(x, y, color.NRGBA64{uint16(c.G) * 257, uint16(c.G) * 257, uint16(c.G) * 257, uint16(c.A) * 257})
			rgb16.SetRGBA64(x, y, color.RGBA64{uint16(o.R)*257 + uint16(x%7), uint16(o.G) * 257, uint16(o.B) * 257, 0xffff})
			rgba16.SetNRGBA64(x, y, color.NRGBA64{uint16(c.R)*257 + uint16(y%5), uint16(c.G) * 257, uint16(c.B) * 257, uint16(c.A) * 257})
			pal.SetColorIndex(x, y, uint8(int(o.G)*199/255))
		}
	}
	return map[string]image.Image{
		"RGB": opaque, "RGBA": asNRGBA(photo), "grey": gray, "grey and alpha, 16-bit": grayA,
		"RGB 16-bit": rgb16, "RGBA 16-bit": rgba16, "paletted with alpha": pal,
	}
}

func writePNG(t testing.TB, img image.Image) string {
	buf := fixture.PNG(t, img)
	path := filepath.Join(t.TempDir(), "p.png")
	if err := os.WriteFile(path, buf, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A PNG's thumbnail made from its rows is what scaling the decoded
// picture directly with the linear filter gives, to within a level or
// two (as Fit's is), for every kind read so, odd sides included.
func TestAPNGFittedFromItsRowsIsFitsThumbnail(t *testing.T) {
	for name, img := range pngKinds(601, 401) {
		t.Run(name, func(t *testing.T) {
			path := writePNG(t, img)
			got, ok := fitPNGFile(path, 128)
			if !ok {
				t.Fatal("not read row by row")
			}
			decoded, err := decodeFile(path)
			if err != nil {
				t.Fatal(err)
			}
			looksScaledDirectly(t, got, decoded, 128)
		})
	}
}

// What the rows cannot give is left to the decoder, which still fits
// it: a small picture, and a file cut short (the decoder's error).
func TestDecodeFileFitLeavesToTheDecoderWhatRowsDoNot(t *testing.T) {
	small := writePNG(t, photograph(200, 100, false))
	if _, ok := fitPNGFile(small, 128); ok {
		t.Error("a picture Fit would not shrink was read row by row")
	}
	if img, err := DecodeFileFit(small, 128); err != nil || img.Bounds().Dx() != 128 {
		t.Errorf("the small picture fitted to %v (%v), want 128 wide", img.Bounds(), err)
	}
	whole, err := os.ReadFile(writePNG(t, photograph(600, 300, false)))
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{len(whole) / 2, len(whole) - 5} {
		path := filepath.Join(t.TempDir(), "cut.png")
		if err := os.WriteFile(path, whole[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := fitPNGFile(path, 128); ok {
			t.Errorf("a file cut at %d of %d bytes was fitted", cut, len(whole))
		}
		if _, err := DecodeFileFit(path, 128); err == nil {
			t.Errorf("a file cut at %d of %d bytes fitted without an error", cut, len(whole))
		}
	}
}

// The whole picture is never in memory: a 2000×1500 RGBA PNG (11.4 MB
// of pixels) is fitted with a small part of that allocated, its colour
// profile's head included (the file is small: gradients compress).
func TestAPNGsThumbnailAllocatesAFractionOfThePicture(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2000, 1500))
	for i := 0; i < len(img.Pix); i += 4 {
		x, y := i/4%2000, i/4/2000
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x), uint8(y), uint8(x+y), uint8(255-y/8)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.png")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := DecodeFileFit(path, 128); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	picture := uint64(len(img.Pix))
	if got := after.TotalAlloc - before.TotalAlloc; got > picture/4 {
		t.Errorf("fitting allocated %d KB, want under a quarter of the picture's %d KB", got>>10, picture>>10)
	} else {
		t.Logf("fitting allocated %d KB for a picture of %d KB (a file of %d KB)", got>>10, picture>>10, buf.Len()>>10)
	}
}
