package imageio

import (
	"bytes"
	"errors"
	"image"
	_ "image/gif" // decoders for DecodeConfig (and svg.go's, registered there)
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"

	"easel/internal/catalogue"
)

// The limits every image Easel reads shares, whoever sent it: the
// service's answers (internal/api reads them here), the gallery's files,
// imports and Edit inputs. They are image rules, not HTTP ones, so they
// live here and the HTTP client imports them.

// MaxPixels is the most pixels Easel accepts in one image, answer,
// preview, thumbnail, imported file or Edit input alike: sixteen times the
// largest image the services make (3840×2160 is 8.3 million), and a
// quarter of a gigabyte once decoded. Larger headers are refused before
// anything is decoded: a 3.5 MB PNG can claim 60000×60000.
const MaxPixels = 64 << 20

// TooLargeError is an image whose header claims more pixels than a
// limit; it is refused before any decode.
type TooLargeError struct {
	Width, Height, Limit int
}

func (e *TooLargeError) Error() string {
	return catalogue.F("the image claims %dx%d pixels, more than the %d million Easel opens", e.Width, e.Height, e.Limit>>20)
}

// CheckPixels refuses dimensions over MaxPixels: the one check that
// answers, previews, thumbnails, imported files and Edit inputs share.
func CheckPixels(w, h int) error {
	return CheckPixelsWithin(w, h, MaxPixels)
}

// CheckPixelsWithin refuses dimensions over limit pixels, or none.
func CheckPixelsWithin(w, h, limit int) error {
	if w <= 0 || h <= 0 || int64(w)*int64(h) > int64(limit) {
		return &TooLargeError{Width: w, Height: h, Limit: limit}
	}
	return nil
}

// SniffImage checks that data is a PNG, JPEG, WebP, GIF or SVG image
// and reads its format and size without decoding the pixels (an SVG's is
// the size it is drawn at).
func SniffImage(data []byte) (format string, w, h int, err error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if size, ok := svgRoot(data); ok {
			// An SVG too large or too hostile to draw is still an SVG,
			// kept as sent; only its drawing is refused.
			w, h := drawSize(size)
			return "svg", w, h, nil
		}
		return "", 0, 0, errors.New(catalogue.T("the bytes are not a PNG, JPEG, WebP, GIF or SVG image"))
	}
	return format, cfg.Width, cfg.Height, nil
}
