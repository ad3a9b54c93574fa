package demoservice

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"

	"github.com/chai2010/webp"
	"github.com/disintegration/imaging"
)

// drawScene paints a picture that depends only on the prompt and the size:
// a two-colour gradient with translucent discs. With transparent set, the
// gradient is left out and only the discs are opaque.
func drawScene(prompt string, w, h int, transparent bool) *image.NRGBA {
	hs := fnv.New64a()
	_, _ = hs.Write([]byte(prompt))
	seed := hs.Sum64()
	rng := rand.New(rand.NewPCG(seed, seed>>7|1))
	top, bottom := hueColour(rng.Float64(), 0.55, 0.55), hueColour(rng.Float64(), 0.6, 0.35)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	if !transparent {
		row := make([]byte, 4*w)
		for y := 0; y < h; y++ {
			c := mix(top, bottom, float64(y)/float64(max(1, h-1)))
			for x := 0; x < w; x++ {
				copy(row[4*x:], []byte{c.R, c.G, c.B, 255})
			}
			copy(img.Pix[y*img.Stride:], row)
		}
	}
	short := float64(min(w, h))
	for i := 0; i < 6; i++ {
		cx, cy := rng.Float64()*float64(w), rng.Float64()*float64(h)
		r := short * (0.12 + 0.25*rng.Float64())
		c := hueColour(rng.Float64(), 0.7, 0.6)
		c.A = uint8(150 + rng.IntN(100))
		disc(img, cx, cy, r, c)
	}
	return img
}

func hueColour(hue, sat, light float64) color.NRGBA {
	f := func(n float64) uint8 {
		k := math.Mod(n+hue*12, 12)
		a := sat * math.Min(light, 1-light)
		return uint8(255 * (light - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))))
	}
	return color.NRGBA{f(0), f(8), f(4), 255}
}

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t) }
	return color.NRGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 255}
}

// disc blends a filled circle over img ("over" compositing, straight alpha).
func disc(img *image.NRGBA, cx, cy, r float64, c color.NRGBA) {
	b := img.Bounds()
	x0, x1 := max(b.Min.X, int(cx-r)), min(b.Max.X, int(cx+r)+1)
	y0, y1 := max(b.Min.Y, int(cy-r)), min(b.Max.Y, int(cy+r)+1)
	sa := float64(c.A) / 255
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			if dx*dx+dy*dy > r*r {
				continue
			}
			i := img.PixOffset(x, y)
			p := img.Pix[i : i+4 : i+4]
			da := float64(p[3]) / 255
			oa := sa + da*(1-sa)
			for k, s := range []uint8{c.R, c.G, c.B} {
				p[k] = uint8((float64(s)*sa + float64(p[k])*da*(1-sa)) / oa)
			}
			p[3] = uint8(255 * oa)
		}
	}
}

// preview is a coarse version of img, as early partial images look.
func preview(img *image.NRGBA, step, of int) *image.NRGBA {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	f := 1 << (of - step + 2) // 1/16, 1/8, 1/4 … of the detail
	small := imaging.Resize(img, max(1, w/f), max(1, h/f), imaging.Box)
	return imaging.Resize(small, w, h, imaging.NearestNeighbor)
}

// composeEdit paints the prompt's scene into the first input: where the
// mask is transparent (the area to change), or faintly everywhere when
// there is no mask. Outside the mask it drifts a little, as real image
// models repaint the whole image: Easel's "keep what the mask protects"
// visibly matters in the demo.
func composeEdit(base image.Image, mask image.Image, prompt string, w, h int) *image.NRGBA {
	out := imaging.Fill(base, w, h, imaging.Center, imaging.Linear)
	scene := drawScene(prompt, w, h, false)
	var m *image.NRGBA
	if mask != nil {
		m = imaging.Resize(mask, w, h, imaging.NearestNeighbor)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := out.PixOffset(x, y)
			t := 0.35
			if m != nil {
				t = outsideMaskDrift
				if m.Pix[i+3] < 128 {
					t = 0.85
				}
			}
			for k := 0; k < 3; k++ {
				out.Pix[i+k] = uint8(float64(out.Pix[i+k])*(1-t) + float64(scene.Pix[i+k])*t)
			}
			out.Pix[i+3] = 255
		}
	}
	return out
}

// stray turns the colours of the top share of the rows of out half-way
// round each channel where mask protects them (everywhere, without a
// mask): the demo's drift mode, a change no threshold misses.
func stray(out *image.NRGBA, mask image.Image, share float64) {
	if share <= 0 {
		return
	}
	w, h := out.Bounds().Dx(), out.Bounds().Dy()
	var m *image.NRGBA
	if mask != nil {
		m = imaging.Resize(mask, w, h, imaging.NearestNeighbor)
	}
	for y := range int(min(share, 1) * float64(h)) {
		for x := range w {
			i := out.PixOffset(x, y)
			if m != nil && m.Pix[i+3] < 128 {
				continue // the area to change: not a stray
			}
			for k := range 3 {
				out.Pix[i+k] += 128
			}
		}
	}
}

// outsideMaskDrift is how much of the scene bleeds outside the mask.
const outsideMaskDrift = 0.08

// encode writes img in format (png, jpeg, webp) at compression 0–100.
func encode(img image.Image, format string, compression int) ([]byte, error) {
	var buf bytes.Buffer
	switch format {
	case "", "png":
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&buf, img); err != nil {
			return nil, err
		}
	case "jpeg":
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: max(1, compression)}); err != nil {
			return nil, err
		}
	case "webp":
		if compression >= 100 {
			return webp.EncodeLosslessRGBA(img)
		}
		return webp.EncodeRGBA(img, float32(compression))
	default:
		return nil, fmt.Errorf("unknown format %q", format)
	}
	return buf.Bytes(), nil
}
