// Package outpaint widens a picture: it places the original on a larger
// canvas, builds the mask that lets the service paint only the new area,
// and (through imageio.Composite) puts the original back pixel-exact in
// the result. The service repaints everything it is sent; without the
// put-back a widened photo would come back with its faces and lettering
// subtly redrawn.
package outpaint

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"strings"

	xdraw "golang.org/x/image/draw"

	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// Anchor is where the original sits on the larger canvas: the new area
// grows on the other sides.
type Anchor int

// The anchors, in the order a 3×3 grid of buttons reads.
const (
	TopLeft Anchor = iota
	Top
	TopRight
	Left
	Center
	Right
	BottomLeft
	Bottom
	BottomRight
)

// anchorNames are the anchors as the command line spells them.
var anchorNames = []string{"top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right"}

// AnchorNames lists every anchor's name, for a usage line.
func AnchorNames() []string { return append([]string(nil), anchorNames...) }

func (a Anchor) String() string {
	if a < 0 || int(a) >= len(anchorNames) {
		return "center"
	}
	return anchorNames[a]
}

// ParseAnchor reads an anchor's name ("centre" is taken too).
func ParseAnchor(s string) (Anchor, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "centre" || s == "" {
		return Center, nil
	}
	for i, n := range anchorNames {
		if n == s {
			return Anchor(i), nil
		}
	}
	return Center, fmt.Errorf(catalogue.T("the anchor %q is not one of %s"), s, strings.Join(anchorNames, ", "))
}

// Place is where an image of size src goes on a canvas of size dst at
// anchor a; src must fit in dst.
func Place(src, dst image.Point, a Anchor) image.Rectangle {
	col, row := int(a)%3, int(a)/3
	free := dst.Sub(src)
	x := [3]int{0, free.X / 2, free.X}[col]
	y := [3]int{0, free.Y / 2, free.Y}[row]
	return image.Rectangle{Min: image.Pt(x, y), Max: image.Pt(x+src.X, y+src.Y)}
}

// Margins are pixels to add on each side.
type Margins struct{ Left, Top, Right, Bottom int }

// Plan is a widening: the canvas to send as the edit's first image, the
// mask to send with it, and where the original sits on both.
type Plan struct {
	// Canvas is the original on a transparent canvas of the new size.
	Canvas *image.NRGBA
	// Mask is opaque over the original (kept) and transparent over the
	// new area (painted), as the edit endpoint reads a mask.
	Mask *image.NRGBA
	// At is the original's place on the canvas.
	At image.Rectangle
	// Scaled is the original's size when it had to shrink to fit the
	// canvas; zero when it went on as it was.
	Scaled image.Point
}

// Expand places orig on a canvas of size at anchor a. An original larger
// than the canvas on either side is scaled down to fit it first (Scaled
// says so): a canvas smaller than its picture is a crop, not a widening.
func Expand(orig image.Image, size image.Point, a Anchor) (*Plan, error) {
	if size.X <= 0 || size.Y <= 0 {
		return nil, fmt.Errorf(catalogue.T("the canvas %dx%d has a side of zero"), size.X, size.Y)
	}
	src := imageio.AsNRGBA(orig)
	var scaled image.Point
	if s := src.Rect.Size(); s.X > size.X || s.Y > size.Y {
		f := min(float64(size.X)/float64(s.X), float64(size.Y)/float64(s.Y))
		scaled = image.Pt(max(1, int(float64(s.X)*f)), max(1, int(float64(s.Y)*f)))
		small := image.NewNRGBA(image.Rectangle{Max: scaled})
		xdraw.CatmullRom.Scale(small, small.Rect, src, src.Rect, draw.Src, nil)
		src = small
	}
	at := Place(src.Rect.Size(), size, a)
	return planAt(src, size, at, scaled), nil
}

// ExpandBy adds m's pixels around orig.
func ExpandBy(orig image.Image, m Margins) (*Plan, error) {
	if m.Left < 0 || m.Top < 0 || m.Right < 0 || m.Bottom < 0 {
		return nil, errors.New(catalogue.T("a margin is below zero"))
	}
	src := imageio.AsNRGBA(orig)
	s := src.Rect.Size()
	size := image.Pt(s.X+m.Left+m.Right, s.Y+m.Top+m.Bottom)
	at := image.Rectangle{Min: image.Pt(m.Left, m.Top), Max: image.Pt(m.Left+s.X, m.Top+s.Y)}
	return planAt(src, size, at, image.Point{}), nil
}

func planAt(src *image.NRGBA, size image.Point, at image.Rectangle, scaled image.Point) *Plan {
	canvas := image.NewNRGBA(image.Rectangle{Max: size})
	draw.Draw(canvas, at, src, image.Point{}, draw.Src)
	mask := image.NewNRGBA(image.Rectangle{Max: size})
	draw.Draw(mask, at, image.Opaque, image.Point{}, draw.Src)
	return &Plan{Canvas: canvas, Mask: mask, At: at, Scaled: scaled}
}

// Grows reports whether the plan adds any area: a canvas the original
// fills is no widening.
func (p *Plan) Grows() bool { return p.At != p.Canvas.Rect }

// PNGs are the canvas and the mask encoded for the edit request.
func (p *Plan) PNGs() (canvas, mask []byte, err error) {
	if canvas, err = imageio.EncodePNG(p.Canvas); err != nil {
		return nil, nil, err
	}
	mask, err = imageio.EncodePNG(p.Mask)
	return canvas, mask, err
}

// Restore is the service's result with the original put back exactly
// where it was placed; the seam is feathered over feather pixels into
// the new area only. A result of another size is scaled to the canvas
// first when its shape agrees (an *imageio.ShapeError when it does not).
func (p *Plan) Restore(result image.Image, feather int) (*image.NRGBA, error) {
	return imageio.Composite(result, p.Canvas, imageio.KeepAlpha(p.Mask), feather)
}

// ForRatio is the smallest canvas of shape w:h that holds an image of
// size src, both sides rounded up to multiples of multiple (1 for none):
// a square photo widened to 16:9 keeps its height and gains width.
func ForRatio(src image.Point, w, h, multiple int) image.Point {
	multiple = max(multiple, 1)
	up := func(v int) int { return (v + multiple - 1) / multiple * multiple }
	cw, ch := src.X, src.Y
	if src.X*h < src.Y*w { // too narrow: widen
		cw = (src.Y*w + h - 1) / h
	} else { // too wide or exact: heighten
		ch = (src.X*h + w - 1) / w
	}
	return image.Pt(up(cw), up(ch))
}

// Shape is a canvas's width to height, as designers name them.
type Shape struct {
	Name string
	W, H int
}

// Shapes are the canvases offered by name.
func Shapes() []Shape {
	return []Shape{
		{catalogue.T("Landscape 3:2"), 3, 2},
		{catalogue.T("Portrait 2:3"), 2, 3},
		{catalogue.T("Square 1:1"), 1, 1},
		{catalogue.T("Banner 16:9"), 16, 9},
		{catalogue.T("Story 9:16"), 9, 16},
	}
}

// MaxSide bounds a canvas's long side: the canvas is sent as an input,
// and a service takes inputs of a few tens of megabytes at most.
const MaxSide = 4096

// Canvas is the canvas of shape s for a picture of size src: the
// smallest that holds it, grown by the share grow on each axis, both
// sides multiples of multiple, the long side at most MaxSide (the
// picture then shrinks to fit, see Expand).
func Canvas(src image.Point, s Shape, grow float64, multiple int) image.Point {
	c := ForRatio(src, s.W, s.H, 1)
	c = image.Pt(int(float64(c.X)*(1+grow)+0.5), int(float64(c.Y)*(1+grow)+0.5))
	multiple = max(multiple, 1)
	if long := max(c.X, c.Y); long > MaxSide {
		f := float64(MaxSide) / float64(long)
		c = image.Pt(int(float64(c.X)*f), int(float64(c.Y)*f))
		return image.Pt(max(multiple, c.X/multiple*multiple), max(multiple, c.Y/multiple*multiple))
	}
	up := func(v int) int { return (v + multiple - 1) / multiple * multiple }
	return image.Pt(up(c.X), up(c.Y)) // never below the picture: it stays exact
}

// PadToShape centres img on the smallest canvas of shape's proportions
// that holds it, for a model that makes only a few sizes: an 800x600
// photo goes to gpt-image-1 as 900x600 and its result is cropped back.
// The padding repeats the picture's edge pixels, so the model sees a
// plausible continuation rather than a frame; mask (nil for none) is
// placed alike, the padding protected. It returns the padded picture,
// the padded mask (nil without one) and the picture's frame on both.
func PadToShape(img, mask image.Image, shape image.Point) (*image.NRGBA, *image.NRGBA, image.Rectangle) {
	src := imageio.AsNRGBA(img)
	size := src.Rect.Size()
	canvas := ForRatio(size, shape.X, shape.Y, 1)
	at := Place(size, canvas, Center)
	out := image.NewNRGBA(image.Rectangle{Max: canvas})
	for y := 0; y < canvas.Y; y++ {
		sy := min(max(y-at.Min.Y, 0), size.Y-1)
		for x := 0; x < canvas.X; x++ {
			sx := min(max(x-at.Min.X, 0), size.X-1)
			copy(out.Pix[out.PixOffset(x, y):out.PixOffset(x, y)+4], src.Pix[src.PixOffset(sx, sy):src.PixOffset(sx, sy)+4])
		}
	}
	if mask == nil {
		return out, nil, at
	}
	m := image.NewNRGBA(image.Rectangle{Max: canvas})
	draw.Draw(m, m.Rect, image.Opaque, image.Point{}, draw.Src)
	draw.Draw(m, at, mask, mask.Bounds().Min, draw.Src)
	return out, m, at
}
