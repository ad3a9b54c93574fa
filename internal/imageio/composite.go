package imageio

import (
	"fmt"
	"image"
	"image/draw"
	"math"

	xdraw "golang.org/x/image/draw"

	"easel/internal/catalogue"
)

// MaxAspectDrift is how far (as a share) a result's aspect may differ
// from the first input's for it to be scaled onto it: services round
// sizes to multiples of 16 or 64, which changes a 3000x2000 photo's 1.5
// to 1536x1024's 1.5 but a 1000x700 scan's 1.43 to 1.5 (5 %).
const MaxAspectDrift = 0.06

// ShapeError says why the unmasked area cannot be put back: the result's
// shape is not the first input's, so no scaling maps one onto the other.
type ShapeError struct {
	Result, Original image.Point
}

func (e *ShapeError) Error() string {
	return catalogue.F("the result is %dx%d and the first image %dx%d: their shapes differ, so the unmasked area cannot be put back (choose “Match the first image” as the size)",
		e.Result.X, e.Result.Y, e.Original.X, e.Original.Y)
}

// SameShape reports whether an image of size a can be scaled onto one of
// size b without distortion a person would see.
func SameShape(a, b image.Point) bool {
	if a.X <= 0 || a.Y <= 0 || b.X <= 0 || b.Y <= 0 {
		return false
	}
	ra, rb := float64(a.X)/float64(a.Y), float64(b.X)/float64(b.Y)
	return math.Abs(ra/rb-1) <= MaxAspectDrift
}

// keepUnmasked is KeepUnmaskedIn on pictures already decoded.
func keepUnmasked(res, orig, m image.Image, feather int, frame image.Rectangle) (*image.NRGBA, error) {
	if !frame.Empty() && orig.Bounds().Size() == frame.Size() && m.Bounds().Size() != frame.Size() {
		// The user's own picture, for an upload padded around it: it is
		// put in its place on the padded canvas (the padding is cut away
		// after).
		canvas := image.NewNRGBA(image.Rectangle{Max: m.Bounds().Size()})
		draw.Draw(canvas, frame, orig, orig.Bounds().Min, draw.Src)
		orig = canvas
	}
	if m.Bounds().Size() != orig.Bounds().Size() {
		return nil, fmt.Errorf(catalogue.T("the mask is %dx%d but the first image %dx%d"), m.Bounds().Dx(), m.Bounds().Dy(), orig.Bounds().Dx(), orig.Bounds().Dy())
	}
	out, err := Composite(res, orig, KeepAlpha(m), feather)
	if err != nil {
		return nil, err
	}
	if !frame.Empty() && frame.In(out.Rect) {
		out = out.SubImage(frame).(*image.NRGBA)
	}
	return out, nil
}

// KeepAlpha is a sent mask's alpha as an *image.Alpha at the origin: 255
// where the original is kept, 0 where it may change.
func KeepAlpha(m image.Image) *image.Alpha {
	b := m.Bounds()
	a := image.NewAlpha(image.Rect(0, 0, b.Dx(), b.Dy()))
	// A decoded mask is NRGBA or RGBA: its alpha is read straight from
	// its bytes, not through draw's per-pixel colour conversion (half a
	// second at 3840×2160).
	var pix []uint8
	var stride int
	switch m := m.(type) {
	case *image.NRGBA:
		pix, stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
	case *image.RGBA:
		pix, stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
	default:
		draw.Draw(a, a.Rect, m, b.Min, draw.Src)
		return a
	}
	for y := range b.Dy() {
		row, out := pix[y*stride:], a.Pix[y*a.Stride:]
		for x := range b.Dx() {
			out[x] = row[4*x+3]
		}
	}
	return a
}

// Composite is result, scaled to original's size, with original put back
// through keep (255: original, 0: result), feathered (see Feather).
func Composite(result, original image.Image, keep *image.Alpha, feather int) (*image.NRGBA, error) {
	ob, rb := original.Bounds(), result.Bounds()
	if !SameShape(rb.Size(), ob.Size()) {
		return nil, &ShapeError{Result: rb.Size(), Original: ob.Size()}
	}
	var out *image.NRGBA
	if rb.Size() == ob.Size() {
		out = copyNRGBA(result)
	} else {
		out = image.NewNRGBA(image.Rect(0, 0, ob.Dx(), ob.Dy()))
		xdraw.BiLinear.Scale(out, out.Rect, result, rb, draw.Src, nil)
	}
	o := AsNRGBA(original)
	k := Feather(keep, feather)
	for y := 0; y < out.Rect.Dy(); y++ {
		row := k.Pix[y*k.Stride : y*k.Stride+out.Rect.Dx()]
		op := out.Pix[y*out.Stride:]
		kp := o.Pix[y*o.Stride:]
		for x, w := range row {
			if w == 0 {
				continue
			}
			i := 4 * x
			if w == 255 {
				copy(op[i:i+4], kp[i:i+4])
				continue
			}
			ww := uint32(w)
			for c := i; c < i+4; c++ {
				op[c] = uint8((uint32(op[c])*(255-ww) + uint32(kp[c])*ww + 127) / 255)
			}
		}
	}
	return out, nil
}

// AsNRGBA is img as an *image.NRGBA at the origin, converted only when it
// is not one already: it may share img's pixels, so it is for reading.
func AsNRGBA(img image.Image) *image.NRGBA {
	img = opaqueAsNRGBA(img)
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	return copyNRGBA(img)
}

// opaqueAsNRGBA is an opaque RGBA picture read as NRGBA over the same
// pixels, img itself otherwise: an opaque RGBA's bytes are the same
// numbers as NRGBA's (there is nothing to divide out), so what PNG
// decodes an RGB file to is read in place, or copied row by row, rather
// than converted (33 MB at 3840×2160).
func opaqueAsNRGBA(img image.Image) image.Image {
	if r, ok := img.(*image.RGBA); ok && r.Opaque() {
		return &image.NRGBA{Pix: r.Pix, Stride: r.Stride, Rect: r.Rect}
	}
	return img
}

// copyNRGBA is a new *image.NRGBA at the origin holding img. What PNG
// and JPEG decode to (NRGBA, RGBA, YCbCr) is converted row by row from
// its bytes: draw's generic path converts each pixel through
// color.Color, half a second for a 3840×2160 picture.
func copyNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	switch src := opaqueAsNRGBA(img).(type) {
	case *image.NRGBA:
		for y := range b.Dy() {
			copy(n.Pix[y*n.Stride:y*n.Stride+4*b.Dx()], src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.RGBA:
		for y := range b.Dy() {
			s, d := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):], n.Pix[y*n.Stride:]
			for i := 0; i < 4*b.Dx(); i += 4 {
				r, g, bl, a := s[i], s[i+1], s[i+2], s[i+3]
				switch a {
				case 255:
					d[i], d[i+1], d[i+2], d[i+3] = r, g, bl, a
				case 0:
				default: // premultiplied: divide back out
					d[i] = uint8((uint32(r)*255 + uint32(a)/2) / uint32(a))
					d[i+1] = uint8((uint32(g)*255 + uint32(a)/2) / uint32(a))
					d[i+2] = uint8((uint32(bl)*255 + uint32(a)/2) / uint32(a))
					d[i+3] = a
				}
			}
		}
	default:
		draw.Draw(n, n.Rect, img, b.Min, draw.Src)
	}
	return n
}

// Feather softens keep's edge into the area that may change, over about
// radius pixels: each pixel takes the greater of its own value and a
// blur of its neighbourhood (two box blurs, a tent), so what the mask
// keeps stays exactly the original, the painted area far from the edge
// stays exactly the result, and the band between blends monotonically.
// A radius of 0 or less returns keep itself.
func Feather(keep *image.Alpha, radius int) *image.Alpha {
	if radius <= 0 {
		return keep
	}
	r := max(1, radius/2)
	out := image.NewAlpha(image.Rect(0, 0, keep.Rect.Dx(), keep.Rect.Dy()))
	for y := range out.Rect.Dy() {
		copy(out.Pix[y*out.Stride:y*out.Stride+out.Rect.Dx()], keep.Pix[y*keep.Stride:])
	}
	// Only around what may change does the blur move anything: farther
	// than its reach (two box blurs of r, 2r) from every pixel under
	// 255, all is 255 and stays so. The band blurred is that area, with
	// a margin past the reach, so its edges repeat 255 as the whole
	// picture's would: the result is the same, at a ninth of the work for
	// a mask of a picture's middle third.
	band, any := changeable(out)
	if !any {
		return out
	}
	band = band.Inset(-(2*r + 2)).Intersect(out.Rect)
	w, h := band.Dx(), band.Dy()
	a := make([]uint16, w*h)
	b := make([]uint16, w*h)
	for y := 0; y < h; y++ {
		row := out.Pix[(band.Min.Y+y)*out.Stride+band.Min.X:]
		for x := 0; x < w; x++ {
			a[y*w+x] = uint16(row[x])
		}
	}
	for range 2 {
		boxBlur(a, b, w, h, r, 1, w) // rows
		boxBlur(b, a, h, w, r, w, 1) // columns
	}
	for y := 0; y < h; y++ {
		row := out.Pix[(band.Min.Y+y)*out.Stride+band.Min.X:]
		for x := 0; x < w; x++ {
			row[x] = max(row[x], uint8(a[y*w+x]))
		}
	}
	return out
}

// changeable is the smallest rectangle holding every pixel of a under
// 255, and whether there is one.
func changeable(a *image.Alpha) (image.Rectangle, bool) {
	box := image.Rectangle{Min: image.Pt(a.Rect.Dx(), a.Rect.Dy())}
	found := false
	for y := range a.Rect.Dy() {
		row := a.Pix[y*a.Stride : y*a.Stride+a.Rect.Dx()]
		first := -1
		for x, v := range row {
			if v < 255 {
				first = x
				break
			}
		}
		if first < 0 {
			continue
		}
		last := first
		for x := len(row) - 1; x > first; x-- {
			if row[x] < 255 {
				last = x
				break
			}
		}
		found = true
		box.Min.X, box.Max.X = min(box.Min.X, first), max(box.Max.X, last+1)
		box.Min.Y, box.Max.Y = min(box.Min.Y, y), max(box.Max.Y, y+1)
	}
	return box, found
}

// boxBlur averages src over 2r+1 samples along lines of n samples, step
// apart, lines lines (stride apart) into dst, with a running sum: its
// cost does not grow with the radius. The edges repeat the last sample.
func boxBlur(src, dst []uint16, n, lines, r, step, stride int) {
	div := uint32(2*r + 1)
	for l := 0; l < lines; l++ {
		base := l * stride
		at := func(i int) uint32 { return uint32(src[base+min(max(i, 0), n-1)*step]) }
		var sum uint32
		for i := -r; i <= r; i++ {
			sum += at(i)
		}
		for i := 0; i < n; i++ {
			dst[base+i*step] = uint16((sum + div/2) / div)
			sum += at(i+r+1) - at(i-r)
		}
	}
}
