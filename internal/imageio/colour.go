package imageio

import (
	"bytes"
	"image"
	"io"
	"os"

	"easel/internal/colour"
)

// SpaceOf is the colour space data declares when it is not sRGB, else
// nil: a file with no profile, an sRGB one, or one Easel cannot read or
// convert from (a grey or CMYK profile) is drawn and sent as sRGB, as
// every browser draws it.
func SpaceOf(data []byte) *colour.Space {
	icc, name, ok := EmbeddedProfile(data)
	if !ok {
		return nil
	}
	s, err := colour.Parse(icc, name)
	if err != nil {
		return nil
	}
	return s
}

// profileHead is how much of a file is read for its profile: the
// profile comes before the pixels, in a PNG, a JPEG and a WebP alike.
const profileHead = maxProfile + 256<<10

// fileSpace is the colour space of the file at path (SpaceOf), read from
// its head.
func fileSpace(path string) *colour.Space {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	return SpaceIn(f)
}

// SpaceIn is the colour space of the image r reads (SpaceOf), from its
// head alone.
func SpaceIn(r io.Reader) *colour.Space {
	head, err := io.ReadAll(io.LimitReader(r, profileHead))
	if err != nil {
		return nil
	}
	return SpaceOf(head)
}

// InSRGB is img, read in s, as sRGB: what the screen shows and the
// service is sent. img itself when s is nil (already sRGB) or the
// conversion fails, which leaves the numbers as they were, as before
// Easel read profiles.
func InSRGB(img image.Image, s *colour.Space) image.Image {
	if s == nil || img == nil {
		return img
	}
	out, err := s.ToSRGB(img)
	if err != nil {
		return img
	}
	return out
}

// DecodeForScreen decodes data (within MaxPixels) in sRGB, to be drawn.
func DecodeForScreen(data []byte) (image.Image, error) {
	img, err := DecodeBounded(bytes.NewReader(data), MaxPixels)
	if err != nil {
		return nil, err
	}
	return InSRGB(img, SpaceOf(data)), nil
}

// FitForScreen is data decoded, scaled to fit side pixels and then (on
// the few pixels left) converted to sRGB: a thumbnail.
func FitForScreen(data []byte, side int) (image.Image, error) {
	img, err := DecodeBounded(bytes.NewReader(data), MaxPixels)
	if err != nil {
		return nil, err
	}
	return InSRGB(Fit(img, side), SpaceOf(data)), nil
}
