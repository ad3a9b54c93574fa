// Package imageio turns images into the files a designer takes elsewhere.
// Originals are kept exactly as the service sent them; an export in the
// same format at full quality is those bytes, anything else is decoded
// and encoded once.
package imageio

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"

	"github.com/chai2010/webp"
	_ "golang.org/x/image/webp"

	"easel/internal/catalogue"
)

// Formats an export can be written in.
var Formats = []string{"png", "jpeg", "webp"}

// Export encodes the original image bytes (of format from) as format to.
// quality (1–100) applies to JPEG and WebP; WebP at 100 is lossless.
// Transparent pixels become white in a JPEG, which has no alpha.
func Export(original []byte, from, to string, quality int) ([]byte, error) {
	if from == to && (to == "png" || quality >= 100 || KeptWhole(to)) {
		return original, nil
	}
	img, err := DecodeBounded(bytes.NewReader(original), MaxPixels)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("cannot read the original: %w"), err)
	}
	quality = max(1, min(100, quality))
	var buf bytes.Buffer
	switch to {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, flatten(img), &jpeg.Options{Quality: quality})
	case "webp":
		if quality >= 100 {
			return webp.EncodeLosslessRGBA(img)
		}
		return webp.EncodeRGBA(img, float32(quality))
	default:
		return nil, fmt.Errorf(catalogue.T("cannot export as %q: use png, jpeg or webp"), to)
	}
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// KeptWhole reports a format whose files an export in the same format
// copies, never re-encodes: an SVG is a drawing (pixels would lose it)
// and a GIF's frames would not survive a decode.
func KeptWhole(format string) bool { return format == "svg" || format == "gif" }

// flatten puts img over white.
func flatten(img image.Image) image.Image {
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Over)
	return out
}

// Extension is the file extension for a format.
func Extension(format string) string {
	if format == "jpeg" {
		return ".jpg"
	}
	return "." + format
}

// EncodeTo writes img as format ("png", "jpeg", "webp"); quality (1–100)
// applies to JPEG and WebP, WebP at 100 is lossless, and a JPEG's
// transparent pixels become white.
func EncodeTo(w io.Writer, img image.Image, format string, quality int) error {
	quality = max(1, min(100, quality))
	switch format {
	case "png":
		return png.Encode(w, img)
	case "jpeg":
		if o, ok := img.(interface{ Opaque() bool }); !ok || !o.Opaque() {
			img = flatten(img) // over white: JPEG has no alpha
		}
		return jpeg.Encode(w, img, &jpeg.Options{Quality: quality})
	case "webp":
		var data []byte
		var err error
		if quality >= 100 {
			data, err = webp.EncodeLosslessRGBA(img)
		} else {
			data, err = webp.EncodeRGBA(img, float32(quality))
		}
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	return fmt.Errorf(catalogue.T("cannot export as %q: use png, jpeg or webp"), format)
}
