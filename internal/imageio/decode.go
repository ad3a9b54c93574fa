package imageio

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"os"

	"github.com/disintegration/imaging"

	"easel/internal/catalogue"
	"easel/internal/colour"
)

// DecodeBounded decodes an image after reading its header and refusing
// one of more than limit pixels, so a small file cannot ask for gigabytes.
// The header is read from the stream itself, however far into it the
// size comes (a JPEG's may follow hundreds of kilobytes of metadata), and
// what it read is decoded again from memory with the rest.
func DecodeBounded(r io.Reader, limit int) (image.Image, error) {
	var head bytes.Buffer
	cfg, _, err := image.DecodeConfig(io.TeeReader(r, &head))
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("not a readable image: %w"), err)
	}
	if err := CheckPixelsWithin(cfg.Width, cfg.Height, limit); err != nil {
		return nil, err
	}
	if cfg.Width*cfg.Height >= countedPixels {
		decodes.Add(1)
	}
	img, _, err := image.Decode(io.MultiReader(&head, r))
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("not a readable image: %w"), err)
	}
	return img, nil
}

// DecodeFileFit decodes an image file, within MaxPixels, and scales it to
// fit side pixels when it is larger: what a pane of the window shows,
// without holding a 4096-pixel original in memory (and in the GPU) for a
// view a fifth of its size. Its colours are sRGB (DecodeFile), converted
// after the scaling, on the few pixels left.
func DecodeFileFit(path string, side int) (image.Image, error) {
	return DecodeFileFitIn(path, side, nil, false)
}

// DecodeFileFitIn is DecodeFileFit for a caller that has read the file's
// head already (known): its colour space is space, and the head is not
// read again.
func DecodeFileFitIn(path string, side int, space *colour.Space, known bool) (image.Image, error) {
	img, err := decodeFile(path)
	if err != nil {
		return nil, err
	}
	if !known {
		space = FileSpace(path)
	}
	return InSRGB(Fit(img, side), space), nil
}

// DecodeFile decodes an image file whole, within MaxPixels, in sRGB: a
// file that declares another colour space (a Display P3 photograph) is
// converted, so it is drawn, cut out or sent as it looks.
func DecodeFile(path string) (image.Image, error) {
	img, err := decodeFile(path)
	if err != nil {
		return nil, err
	}
	return InSRGB(img, FileSpace(path)), nil
}

// decodeFile decodes an image file whole, within MaxPixels, its numbers
// as the file holds them.
func decodeFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeBounded(f, MaxPixels)
}

// ReadFile reads a file of Easel's (a stored input, a gallery image),
// bounded by MaxReadBytes as any input is.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxReadBytes))
}

// Fit is img scaled down to fit side pixels, or img itself when it fits.
func Fit(img image.Image, side int) image.Image {
	if b := img.Bounds(); b.Dx() > side || b.Dy() > side {
		return imaging.Fit(img, side, side, imaging.Linear)
	}
	return img
}

// IsOpaque reports whether every pixel of img is opaque. Images that can
// tell cheaply (a JPEG's YCbCr, a scan of an NRGBA's alpha bytes that
// stops at the first transparent pixel) do; others are looked at pixel
// by pixel.
func IsOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return false
			}
		}
	}
	return true
}
