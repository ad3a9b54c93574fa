//go:build ignore

// gen_icon draws Easel's application icon: a rounded tile with a warm
// gradient, a palette of three translucent paint dots and a white brush
// stroke. Run `go generate ./assets` after changing it; icon.png is committed.
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"

	"golang.org/x/image/draw"
)

const size = 512

func main() {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	radius := 96.0
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			a := roundedCoverage(float64(x)+0.5, float64(y)+0.5, radius)
			if a == 0 {
				continue
			}
			t := (float64(x) + float64(y)) / (2 * size)
			c := lerp(color.NRGBA{88, 60, 214, 255}, color.NRGBA{244, 114, 86, 255}, t)
			c.A = uint8(255 * a)
			img.SetNRGBA(x, y, c)
		}
	}
	dots := []struct {
		cx, cy, r float64
		c         color.NRGBA
	}{
		{180, 200, 86, color.NRGBA{255, 214, 92, 220}},
		{300, 170, 86, color.NRGBA{96, 220, 200, 200}},
		{250, 290, 86, color.NRGBA{255, 255, 255, 150}},
	}
	for _, d := range dots {
		paintDisc(img, d.cx, d.cy, d.r, d.c)
	}
	// A brush stroke: discs stamped along a gentle curve.
	for i := 0; i <= 400; i++ {
		t := float64(i) / 400
		x := 110 + 300*t
		y := 400 - 60*math.Sin(t*math.Pi) - 40*t
		paintDisc(img, x, y, 10+18*math.Sin(t*math.Pi), color.NRGBA{255, 255, 255, 255})
	}
	write("icon.png", img)
	// The window's icon: task bars and switchers show 16-128 pixels, and
	// a 512-pixel one costs the main thread 14 ms to decode and send to
	// the X server while the window opens.
	small := image.NewNRGBA(image.Rect(0, 0, windowSize, windowSize))
	draw.CatmullRom.Scale(small, small.Rect, img, img.Rect, draw.Src, nil)
	write("icon-window.png", small)
}

const windowSize = 128

func write(name string, img image.Image) {
	f, err := os.Create(name)
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func roundedCoverage(x, y, r float64) float64 {
	cx := math.Max(r, math.Min(size-r, x))
	cy := math.Max(r, math.Min(size-r, y))
	d := math.Hypot(x-cx, y-cy)
	return math.Max(0, math.Min(1, r-d+0.5))
}

func paintDisc(img *image.NRGBA, cx, cy, r float64, c color.NRGBA) {
	for y := int(cy - r - 1); y <= int(cy+r+1); y++ {
		for x := int(cx - r - 1); x <= int(cx+r+1); x++ {
			cov := math.Max(0, math.Min(1, r-math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)+0.5))
			if cov == 0 || !image.Pt(x, y).In(img.Rect) {
				continue
			}
			dst := img.NRGBAAt(x, y)
			a := float64(c.A) / 255 * cov
			blend := func(s, d uint8) uint8 { return uint8(float64(s)*a + float64(d)*(1-a)) }
			img.SetNRGBA(x, y, color.NRGBA{blend(c.R, dst.R), blend(c.G, dst.G), blend(c.B, dst.B), dst.A})
		}
	}
}

func lerp(a, b color.NRGBA, t float64) color.NRGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t) }
	return color.NRGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 255}
}
