package colour

import (
	"image"
	"os"
	"testing"
)

// A 3840×2160 picture, the largest gpt-image-2 answer, converted: what
// a kept edit of an Adobe RGB photograph adds to the time from answer to
// saved composite (docs/measurements.md). It is like a photograph:
// smooth areas and fine grain, whose colours repeat as a photograph's do.
func BenchmarkFromSRGB4KPhotoLike(b *testing.B) {
	data, err := os.ReadFile("testdata/adobergb.icc")
	if err != nil {
		b.Fatal(err)
	}
	s, err := Parse(data, "")
	if err != nil {
		b.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 3840, 2160))
	for y := range 2160 {
		for x := range 3840 {
			grain := byte((x*31 + y*17) % 5)
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(x/16)+grain, byte(y/9)+grain, byte((x+y)/24), 255
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.FromSRGB(img); err != nil {
			b.Fatal(err)
		}
	}
}
