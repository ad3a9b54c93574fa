package imageio

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// photoLike is a picture with smooth gradients and noise, as a photograph
// has: every filter is chosen somewhere in it.
func photoLike(w, h int, alpha bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if alpha {
				a = uint8(x * 255 / max(1, w-1))
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(x*7 + y), uint8(y * 3), uint8(x ^ y + r.IntN(9)), a})
		}
	}
	return img
}

// The banded encoder writes a PNG that decodes to the picture's own
// pixels, opaque (RGB) or not (RGBA), from NRGBA and from RGBA, in any
// number of bands, a band of one row among them.
func TestBandedPNGDecodesToThePicture(t *testing.T) {
	for _, tc := range []struct {
		name    string
		w, h    int
		alpha   bool
		workers int
	}{
		{"opaque, many bands", 301, 997, false, 4},
		{"translucent", 257, 513, true, 3},
		{"one row", 64, 1, false, 8},
		{"rows fewer than workers", 40, 3, true, 16},
		{"one worker", 128, 128, false, 1},
	} {
		img := photoLike(tc.w, tc.h, tc.alpha)
		rows, ok := rowSource(img)
		if !ok {
			t.Fatalf("%s: no row source for an NRGBA", tc.name)
		}
		data, err := encodeBands(rows, tc.w, tc.h, tc.workers)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		back, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: the file does not decode: %v", tc.name, err)
		}
		if !samePixels(img, back) {
			t.Errorf("%s: the decoded pixels differ from the picture's", tc.name)
		}
		// Go reads an RGB file as RGBA, an RGBA file as NRGBA: an opaque
		// picture is written without its alpha.
		if _, rgb := back.(*image.RGBA); rgb == tc.alpha {
			t.Errorf("%s: decoded as %T: the wrong colour type was written", tc.name, back)
		}
	}
}

// A large picture goes through EncodePNG's bands, and a premultiplied
// translucent one keeps its colours.
func TestEncodePNGOfALargeTranslucentRGBA(t *testing.T) {
	n := photoLike(1400, 800, true)
	rgba := image.NewRGBA(n.Rect)
	for y := range 800 {
		for x := range 1400 {
			rgba.Set(x, y, n.At(x, y))
		}
	}
	data, err := EncodePNG(rgba)
	if err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !samePixels(rgba, back) {
		t.Error("the decoded pixels differ from the picture's")
	}
}

func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.NRGBAModel.Convert(a.At(x, y)) != color.NRGBAModel.Convert(b.At(x, y)) {
				return false
			}
		}
	}
	return true
}

// Combining two runs' checksums gives the checksum of the runs joined.
func TestAdler32Combine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5551, 65521, 100000} {
		a, b := make([]byte, r.IntN(70000)), make([]byte, n)
		for i := range a {
			a[i] = byte(r.IntN(256))
		}
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		want := adler32.Checksum(append(append([]byte(nil), a...), b...))
		if got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), len(b)); got != want {
			t.Errorf("runs of %d and %d: %08x, want %08x", len(a), n, got, want)
		}
	}
}

func BenchmarkEncodePNG4K(b *testing.B) {
	img := photoLike(3840, 2160, false)
	b.Run("bands", func(b *testing.B) {
		for b.Loop() {
			if _, err := EncodePNG(img); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stdlib", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
				b.Fatal(err)
			}
		}
	})
}
