package imageio

import (
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	"github.com/disintegration/imaging"
)

// photograph is a w×h picture of smooth gradients under fine noise, as a
// photograph is, premultiplied (RGBA, as PNG decodes an RGB file to) and
// translucent towards its right edge when alpha is set.
func photograph(w, h int, alpha bool) *image.RGBA {
	n := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(3, 4))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if alpha {
				a = uint8(255 - x*200/w)
			}
			k := uint8(r.IntN(12))
			n.SetNRGBA(x, y, color.NRGBA{uint8(x*230/w) + k, uint8(y*230/h) + k, uint8((x+y)*115/(w+h)) + k, a})
		}
	}
	out := image.NewRGBA(n.Rect)
	draw.Draw(out, out.Rect, n, image.Point{}, draw.Src)
	return out
}

func asNRGBA(img image.Image) *image.NRGBA {
	out := image.NewNRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

// asYCbCr is img as a JPEG decodes one: 4:2:0, each chroma sample the
// top-left pixel's of its 2×2.
func asYCbCr(img image.Image) *image.YCbCr {
	b := img.Bounds()
	out := image.NewYCbCr(b, image.YCbCrSubsampleRatio420)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			yy, cb, cr := color.RGBToYCbCr(uint8(r>>8), uint8(g>>8), uint8(bl>>8))
			out.Y[out.YOffset(x, y)] = yy
			if x%2 == 0 && y%2 == 0 {
				out.Cb[out.COffset(x, y)], out.Cr[out.COffset(x, y)] = cb, cr
			}
		}
	}
	return out
}

// A large picture fitted through the block shrink is what scaling it
// directly with the linear filter gives, to within a level or two: the
// shrink is a shortcut, not another look.
func TestFittingALargePictureLooksAsScalingItDirectly(t *testing.T) {
	for _, tc := range []struct {
		name string
		img  image.Image
		side int
	}{
		{"opaque 4K", photograph(3840, 2160, false), 256},
		{"translucent, portrait, odd sides", photograph(1111, 2999, true), 256},
		// Weighed by alpha as summed, and drawn band by band before the
		// sum: a translucent PNG's NRGBA and a JPEG's YCbCr (small, to
		// a small side: the race detector makes pixel loops slow).
		{"translucent NRGBA", asNRGBA(photograph(601, 401, true)), 128},
		{"YCbCr", asYCbCr(photograph(600, 400, false)), 128},
	} {
		t.Run(tc.name, func(t *testing.T) {
			looksScaledDirectly(t, Fit(tc.img, tc.side), tc.img, tc.side)
		})
	}
}

// looksScaledDirectly holds got, a picture fitted to side, to what
// scaling img directly with the linear filter gives: on average within
// half a level, and nowhere more than four apart.
func looksScaledDirectly(t *testing.T, got, img image.Image, side int) {
	t.Helper()
	g, want := imaging.Clone(got), imaging.Fit(img, side, side, imaging.Linear)
	if g.Rect != want.Rect {
		t.Fatalf("fitted to %v, want %v", g.Rect, want.Rect)
	}
	var sum, worst int
	for i := range g.Pix {
		d := abs(int(g.Pix[i]) - int(want.Pix[i]))
		sum += d
		worst = max(worst, d)
	}
	mean := float64(sum) / float64(len(g.Pix))
	t.Logf("mean difference %.3f levels, worst %d", mean, worst)
	if mean > 0.5 || worst > 4 {
		t.Errorf("mean difference %.2f levels, worst %d, want at most 0.5 and 4", mean, worst)
	}
}

// Each block is the average of its pixels, rounded; the blocks at the
// right and bottom edges, narrower, of theirs alone.
func TestShrinkAveragesEachBlockEdgesIncluded(t *testing.T) {
	img := image.NewRGBA(image.Rect(10, 20, 15, 23)) // 5×3, not at the origin
	for y := range 3 {
		for x := range 5 {
			v := uint8(10*x + 100*y)
			img.SetRGBA(10+x, 20+y, color.RGBA{v, v / 2, 255 - v, 255})
		}
	}
	got := shrink(img, 2)
	if got.Bounds() != image.Rect(0, 0, 3, 2) {
		t.Fatalf("shrunk to %v, want 3×2", got.Bounds())
	}
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{
		{0, 0, color.RGBA{55, 28, 200, 255}},  // (0+10+100+110)/4 = 55; halves 0,5,50,55 → 27.5; 255-55
		{2, 0, color.RGBA{90, 45, 165, 255}},  // (40+140)/2
		{0, 1, color.RGBA{205, 103, 50, 255}}, // (200+210)/2; (100+105)/2 = 102.5
		{2, 1, color.RGBA{240, 120, 15, 255}}, // the corner pixel alone
	} {
		if got := got.At(c.x, c.y).(color.RGBA); got != c.want {
			t.Errorf("block (%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// A translucent picture's block weighs each pixel's colour by its
// alpha: an opaque red beside a clear blue is a half-clear red, not
// purple.
func TestShrinkWeighsTranslucentColoursByAlpha(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	img.SetNRGBA(1, 0, color.NRGBA{0, 0, 255, 0})
	got := shrink(img, 2)
	if c := color.NRGBAModel.Convert(got.At(0, 0)).(color.NRGBA); c != (color.NRGBA{255, 0, 0, 128}) {
		t.Errorf("the block is %v, want half-clear red {255 0 0 128}", c)
	}
}
