// Package cutout makes a picture's flat background transparent on this
// machine: some models give no alpha (gpt-image-2 refuses transparent
// backgrounds), so Easel asks for a flat key colour and removes it here,
// with soft edges and without the key's colour bleeding into them.
//
// Each pixel near the background is taken as a mix of the key and of the
// foreground beside it: its alpha is how far along the line from the key
// to that foreground it lies, and its colour is the foreground unmixed
// from the key. Pixels away from the background keep their colour and
// full opacity, so a textured foreground is not thinned; the key itself
// goes wherever it shows, the gaps between a figure's arms included,
// which is why the prompt asks for a key colour the subject lacks.
package cutout

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// Options tune the keying; the zero value keys the border's colour.
type Options struct {
	// Key is the background colour; nil takes the commonest colour of
	// the image's border.
	Key *color.NRGBA
	// Tolerance is how far (0–441, distance in RGB) a pixel may be from
	// the key and still be background; 0 means DefaultTolerance.
	Tolerance float64
	// Edge is how many pixels from the background a pixel may be and
	// still be taken as a mix of key and foreground; 0 means DefaultEdge.
	Edge int
}

// DefaultTolerance takes JPEG noise and gentle gradients in a flat
// background as background.
const DefaultTolerance = 36

// DefaultEdge covers a model's anti-aliased edges, one to three pixels.
const DefaultEdge = 3

// ParseColour reads "#rrggbb", "rrggbb" or "#rgb".
func ParseColour(s string) (color.NRGBA, error) {
	h := strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if len(h) != 6 || err != nil {
		return color.NRGBA{}, fmt.Errorf(catalogue.T("the colour %q is not #rrggbb"), s)
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}, nil
}

// Hex is c as "#rrggbb".
func Hex(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// BorderColour is the commonest colour of img's outermost pixels, to
// within a few levels: where a flat background shows.
func BorderColour(img image.Image) color.NRGBA {
	n := imageio.AsNRGBA(img)
	w, h := n.Rect.Dx(), n.Rect.Dy()
	type sum struct{ r, g, b, n int }
	bins := map[uint32]*sum{}
	add := func(x, y int) {
		c := n.NRGBAAt(x, y)
		k := uint32(c.R>>3)<<10 | uint32(c.G>>3)<<5 | uint32(c.B>>3)
		s := bins[k]
		if s == nil {
			s = &sum{}
			bins[k] = s
		}
		s.r, s.g, s.b, s.n = s.r+int(c.R), s.g+int(c.G), s.b+int(c.B), s.n+1
	}
	for x := 0; x < w; x++ {
		add(x, 0)
		add(x, h-1)
	}
	for y := 1; y < h-1; y++ {
		add(0, y)
		add(w-1, y)
	}
	var best *sum
	for _, s := range bins {
		if best == nil || s.n > best.n {
			best = s
		}
	}
	if best == nil {
		return color.NRGBA{A: 255}
	}
	return color.NRGBA{R: uint8(best.r / best.n), G: uint8(best.g / best.n), B: uint8(best.b / best.n), A: 255}
}

// Result is a keyed image and what was keyed.
type Result struct {
	Image *image.NRGBA
	// Key is the colour removed.
	Key color.NRGBA
	// Cleared is the share of pixels made fully transparent.
	Cleared float64
}

// Key removes the key colour from img.
func Key(img image.Image, o Options) Result {
	src := imageio.AsNRGBA(img)
	key := BorderColour(src)
	if o.Key != nil {
		key = *o.Key
	}
	tol := o.Tolerance
	if tol <= 0 {
		tol = DefaultTolerance
	}
	edge := o.Edge
	if edge <= 0 {
		edge = DefaultEdge
	}
	w, h := src.Rect.Dx(), src.Rect.Dy()
	k := [3]float64{float64(key.R), float64(key.G), float64(key.B)}
	dist := make([]float64, w*h)
	bg := make([]bool, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := src.Pix[y*src.Stride+4*x:]
			d := math.Sqrt(sq(float64(c[0])-k[0]) + sq(float64(c[1])-k[1]) + sq(float64(c[2])-k[2]))
			dist[y*w+x] = d
			bg[y*w+x] = d <= tol
		}
	}
	near := dilate(bg, w, h, edge)
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	copy(out.Pix, src.Pix)
	cleared := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			o := out.Pix[y*out.Stride+4*x : y*out.Stride+4*x+4]
			switch {
			case bg[i]:
				o[0], o[1], o[2], o[3] = 0, 0, 0, 0
				cleared++
			case near[i]:
				unmix(src, dist, bg, w, h, x, y, edge, k, o)
			}
		}
	}
	return Result{Image: out, Key: key, Cleared: float64(cleared) / float64(max(1, w*h))}
}

// unmix sets o, an edge pixel, to its foreground colour and alpha: the
// foreground is the pixel within edge that lies farthest from the key,
// and the pixel's alpha is its projection on the line from the key to
// that foreground.
func unmix(src *image.NRGBA, dist []float64, bg []bool, w, h, x, y, edge int, k [3]float64, o []uint8) {
	fx, fy, far := x, y, -1.0
	for dy := -edge; dy <= edge; dy++ {
		for dx := -edge; dx <= edge; dx++ {
			nx, ny := x+dx, y+dy
			if nx < 0 || ny < 0 || nx >= w || ny >= h || bg[ny*w+nx] {
				continue
			}
			if d := dist[ny*w+nx]; d > far {
				fx, fy, far = nx, ny, d
			}
		}
	}
	f := src.Pix[fy*src.Stride+4*fx:]
	c := src.Pix[y*src.Stride+4*x:]
	var dot, norm float64
	var fk, ck [3]float64
	for j := range 3 {
		fk[j] = float64(f[j]) - k[j]
		ck[j] = float64(c[j]) - k[j]
		dot += fk[j] * ck[j]
		norm += fk[j] * fk[j]
	}
	a := 1.0
	if norm > 0 {
		a = min(1, max(0, dot/norm))
	}
	o[3] = uint8(math.Round(a * float64(c[3])))
	if a <= 0 {
		o[0], o[1], o[2] = 0, 0, 0
		return
	}
	for j := range 3 {
		v := float64(f[j]) // faint pixels: the foreground beside them
		if a >= 0.5 {
			v = k[j] + ck[j]/a // the pixel with the key taken out
		}
		o[j] = uint8(math.Round(min(255, max(0, v))))
	}
}

// dilate marks every pixel within r (a square) of a marked one.
func dilate(m []bool, w, h, r int) []bool {
	rows := make([]bool, len(m))
	for y := 0; y < h; y++ {
		last := -1 << 30 // the last marked column seen
		for x := 0; x < w+r; x++ {
			if x < w && m[y*w+x] {
				last = x
			}
			if t := x - r; t >= 0 && t < w {
				rows[y*w+t] = x-last <= 2*r
			}
		}
	}
	out := make([]bool, len(m))
	for x := 0; x < w; x++ {
		last := -1 << 30
		for y := 0; y < h+r; y++ {
			if y < h && rows[y*w+x] {
				last = y
			}
			if t := y - r; t >= 0 && t < h {
				out[t*w+x] = y-last <= 2*r
			}
		}
	}
	return out
}

func sq(v float64) float64 { return v * v }

// Refine applies a hand-painted correction to a keyed picture: removed
// is how much of each pixel goes (255 gone, 0 kept), as the mask painter
// paints it over the keyed alpha. A pixel the brush brings back that the
// key had cleared takes the original's colour; any other keeps the
// keyed colour, edges unmixed.
func Refine(original image.Image, keyed *image.NRGBA, removed *image.Alpha) *image.NRGBA {
	src := imageio.AsNRGBA(original)
	out := image.NewNRGBA(keyed.Rect)
	copy(out.Pix, keyed.Pix)
	w, h := keyed.Rect.Dx(), keyed.Rect.Dy()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := out.PixOffset(x, y)
			a := 255 - removed.AlphaAt(x, y).A
			if keyed.Pix[i+3] == 0 && a > 0 {
				copy(out.Pix[i:i+3], src.Pix[src.PixOffset(x, y):src.PixOffset(x, y)+3])
			}
			out.Pix[i+3] = a
		}
	}
	return out
}

// Removed is a keyed picture's alpha as the painter's mask reads it:
// 255 where the picture is gone.
func Removed(keyed *image.NRGBA) *image.Alpha {
	a := image.NewAlpha(keyed.Rect)
	for i := range a.Pix {
		a.Pix[i] = 255 - keyed.Pix[4*i+3]
	}
	return a
}
