package imageio

import (
	"image"
	"image/color"
	"image/draw"

	xdraw "golang.org/x/image/draw"
)

// SplitView is what a before/after slider shows in a w x h area: both
// images fitted the same way (centred, whole), before on the left of
// split (0–1 of the width) and after on the right, a line at the split.
// Each is fitted at its own aspect, so a result of another size but the
// same shape lines up with its original, and one of another shape is
// shown as it is, never stretched into the original's.
func SplitView(before, after image.Image, w, h int, split float64) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))
	if before == nil || after == nil || w <= 0 || h <= 0 {
		return out
	}
	// Each at its own aspect: an after of another shape is fitted, not
	// stretched into the before's frame.
	frame := fitRect(before.Bounds().Size(), w, h)
	left := image.NewRGBA(out.Rect)
	right := image.NewRGBA(out.Rect)
	xdraw.ApproxBiLinear.Scale(left, frame, before, before.Bounds(), draw.Src, nil)
	xdraw.ApproxBiLinear.Scale(right, fitRect(after.Bounds().Size(), w, h), after, after.Bounds(), draw.Src, nil)
	cut := frame.Min.X + int(float64(frame.Dx())*min(max(split, 0), 1))
	draw.Draw(out, image.Rect(0, 0, cut, h), left, image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(cut, 0, w, h), right, image.Pt(cut, 0), draw.Src)
	line := image.Rect(cut-1, frame.Min.Y, cut+1, frame.Max.Y).Intersect(out.Rect)
	draw.Draw(out, line, image.NewUniform(color.White), image.Point{}, draw.Src)
	return out
}

// fitRect is the rectangle an image of size s takes, fitted whole and
// centred, in a w x h area.
func fitRect(s image.Point, w, h int) image.Rectangle {
	if s.X <= 0 || s.Y <= 0 {
		return image.Rect(0, 0, w, h)
	}
	scale := min(float64(w)/float64(s.X), float64(h)/float64(s.Y))
	fw, fh := int(float64(s.X)*scale), int(float64(s.Y)*scale)
	x, y := (w-fw)/2, (h-fh)/2
	return image.Rect(x, y, x+fw, y+fh)
}

// CropPNG is the part r of an encoded image, as a PNG: the user's own
// picture out of an upload padded around it.
func CropPNG(data []byte, r image.Rectangle) ([]byte, error) {
	p, err := crop(PictureOf(data), r)
	if err != nil {
		return nil, err
	}
	return p.Bytes()
}
