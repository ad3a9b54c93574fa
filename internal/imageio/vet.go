package imageio

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"

	"easel/internal/catalogue"
	"easel/internal/wording"
)

// vetter, when set, decodes a picture somewhere its decoder's crash or
// hunger cannot reach this process (the window's and the commands' own
// executable, started again under limits: internal/quarantine). The
// pictures Easel has not seen before — files dropped or picked, pasted
// bytes, a stream's previews — pass it before anything here decodes
// them: a bug in a decoder Easel does not own (libwebp in C, the colour
// and SVG libraries) must cost a child, not the window with its jobs.
// Its answer is the picture's thumbnail as a PNG in sRGB (library's
// MakeThumbnail, at most 256 pixels a side), drawn where the picture was.
var vetter func(io.Reader) ([]byte, error)

// SetVetter makes v the check every new picture passes first (see
// vetter); main sets it once, before any picture is read. Unset, as in
// tests of this process's own decoding, nothing is vetted.
func SetVetter(v func(io.Reader) ([]byte, error)) { vetter = v }

// Vet passes the picture read from r through the vetter: nil when it
// drew the picture or no vetter is set, else why it could not be drawn.
func Vet(r io.Reader) error {
	if vetter == nil {
		return nil
	}
	_, err := vetter(r)
	return err
}

// FitNewFile is DecodeFileFit for a file Easel has not seen before and
// has not decoded: with a vetter, the vetter draws it and this process
// only scales the thumbnail it answered (side at most 256), so a file is
// decoded once, where its decoder's failure costs a child. The error
// names the file (name) and why it could not be drawn.
func FitNewFile(path, name string, side int) (image.Image, error) {
	if vetter == nil {
		return DecodeFileFit(path, side)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("cannot open %s: %w"), name, wording.PathCause(err))
	}
	defer f.Close()
	thumb, err := vetter(io.LimitReader(f, MaxReadBytes))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if thumb == nil {
		return DecodeFileFit(path, side) // no child could run: said where
	}
	img, err := png.Decode(bytes.NewReader(thumb))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Fit(img, side), nil
}

// vetFile vets the file at path (shown as name), read as it streams.
func vetFile(path, name string) error {
	if vetter == nil {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf(catalogue.T("cannot open %s: %w"), name, wording.PathCause(err))
	}
	defer f.Close()
	if _, err := vetter(io.LimitReader(f, MaxReadBytes)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
