package imageio

import (
	"bytes"
	"errors"
	"image"
	"io"
	"os"

	"easel/internal/catalogue"
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

// FileSpace is the colour space of the file at path (SpaceOf), read from
// its head.
func FileSpace(path string) *colour.Space {
	head, err := FileHead(path)
	if err != nil {
		return nil
	}
	return SpaceOf(head)
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

// ProfileTrouble says why data's embedded colour profile cannot be
// used, as the end of a sentence ("is damaged (…)"): its colours as made
// cannot be drawn, and Easel draws the pixels as sRGB. ok is false for a
// file with no profile or one Easel reads.
func ProfileTrouble(data []byte) (why string, ok bool) {
	if !DeclaredColours(data).Profile {
		return "", false
	}
	icc, name, found := EmbeddedProfile(data)
	if !found {
		return catalogue.T("cannot be read"), true
	}
	_, err := colour.Parse(icc, name)
	var broken *colour.ProfileError
	switch {
	case errors.As(err, &broken):
		return catalogue.F("is damaged (%s)", broken.Reason), true
	case err != nil:
		return catalogue.T("is not an RGB profile"), true
	}
	return "", false
}

// ColoursLine says, for a person, what data (a file's head is enough)
// declares of its colours and what Easel does with them.
func ColoursLine(data []byte) string {
	d := DeclaredColours(data)
	if !d.Profile {
		if d.SRGB {
			return catalogue.T("Colours: sRGB, as the file says")
		}
		return catalogue.T("Colours: no profile, read as sRGB")
	}
	icc, name, ok := EmbeddedProfile(data)
	if !ok {
		return catalogue.T("Colours: an embedded profile Easel cannot read, so read as sRGB")
	}
	s, err := colour.Parse(icc, name)
	var broken *colour.ProfileError
	switch {
	case errors.As(err, &broken):
		return catalogue.F("Colours: an embedded profile that is damaged (%s), so read as sRGB", broken.Reason)
	case err != nil:
		return catalogue.T("Colours: an embedded profile Easel cannot convert (not RGB), so read as sRGB")
	case s == nil:
		return catalogue.T("Colours: sRGB, from its embedded profile")
	default:
		return catalogue.F("Colours: %s, from its embedded profile; shown and sent converted to sRGB", s.Label())
	}
}

// FileHead is the head of the file at path, as far as what declares an
// image's colours and credentials reaches.
func FileHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read into one buffer of the size it will be: ReadAll's doubling
	// allocated 10 MB for every large file's thumbnail.
	size := int64(profileHead)
	if st, err := f.Stat(); err == nil {
		size = min(size, st.Size())
	}
	head := make([]byte, size)
	n, err := io.ReadFull(f, head)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil // shorter than it said: what there is
	}
	return head[:n], err
}
