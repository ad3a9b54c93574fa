package imageio

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"testing"

	xdraw "golang.org/x/image/draw"

	"easel/internal/testsupport/benchfloor"
)

// photo is a w x h picture with a photo's mix of smooth areas and fine
// detail, so its JPEG is as costly to decode as a camera's.
func photo(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(3, 4))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			n := uint8(rng.IntN(24))
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x*255/w)+n, uint8(y*255/h)+n, uint8((x+y)%256), 255
		}
	}
	return img
}

// Preparing a 24-megapixel JPEG (the check that it is whole, its EXIF,
// its picture for the thumbnail) against the floor of a plain decode of
// the same file, timed in pairs. Goal: at most 1.2x.
func BenchmarkPrepare24MPJPEG(b *testing.B) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, photo(6000, 4000), &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	decode := func() float64 {
		return benchfloor.MedianNs(1, func() {
			if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		})
	}
	prepare := func() float64 {
		return benchfloor.MedianNs(1, func() {
			p, err := Prepare("camera.jpg", data, MaxUploadBytes)
			if err != nil || p.Width != 6000 || p.Image == nil {
				b.Fatal(err)
			}
		})
	}
	b.ResetTimer()
	floor, ratios := benchfloor.Pairs(b.N, decode, prepare)
	b.ReportMetric(benchfloor.Median(floor)/1e6, "floor-ms")
	b.ReportMetric(benchfloor.Median(ratios), "ratio-to-decode")
}

// Keeping the unmasked area of a 2048x2048 result on a 1536x1536 first
// image (scale, feather 8 px, blend through the mask) against the floor
// of a plain resize plus a masked draw. Goal: at most 1.5x.
func BenchmarkComposite2048(b *testing.B) {
	result, original := photo(2048, 2048), photo(1536, 1536)
	keep := image.NewAlpha(original.Rect)
	for y := range 1536 {
		for x := range 1536 {
			if (x-768)*(x-768)+(y-768)*(y-768) > 400*400 {
				keep.Pix[keep.PixOffset(x, y)] = 255 // a round hole that may change
			}
		}
	}
	plain := func() float64 {
		return benchfloor.MedianNs(1, func() {
			out := image.NewNRGBA(original.Rect)
			xdraw.BiLinear.Scale(out, out.Rect, result, result.Rect, draw.Src, nil)
			draw.DrawMask(out, out.Rect, original, image.Point{}, keep, image.Point{}, draw.Over)
		})
	}
	composite := func() float64 {
		return benchfloor.MedianNs(1, func() {
			if _, err := Composite(result, original, keep, 8); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.ResetTimer()
	floor, ratios := benchfloor.Pairs(b.N, plain, composite)
	b.ReportMetric(benchfloor.Median(floor)/1e6, "floor-ms")
	b.ReportMetric(benchfloor.Median(ratios), "ratio-to-resize-and-draw")
}
