package api

import (
	"bytes"
	"easel/internal/catalogue"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for DecodeConfig
	_ "image/png"
	"io"

	"github.com/tidwall/gjson"
	_ "golang.org/x/image/webp"
)

// readBody reads an answer whole, bounded by limit, into one buffer sized
// from Content-Length so it is not copied while it grows.
func readBody(r io.Reader, contentLength, limit int64) ([]byte, error) {
	if contentLength > limit {
		return nil, &TooLongError{Limit: limit, Said: contentLength}
	}
	if contentLength > 0 {
		// Its length is known: one buffer of exactly that size.
		buf := make([]byte, contentLength)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	// Of unknown length: read in chunks, never a doubling buffer (which
	// holds three times the answer at its last growth), and join them
	// once at the end; an answer over the limit is refused holding no
	// more than the limit.
	var chunks [][]byte
	var total int64
	size := 64 << 10
	for {
		chunk := make([]byte, size)
		n, err := io.ReadFull(r, chunk)
		if n > 0 {
			chunks = append(chunks, chunk[:n])
			total += int64(n)
			if total > limit {
				return nil, &TooLongError{Limit: limit}
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(size*2, 8<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// TooLongError is an answer longer than Easel reads for its kind: it was
// refused (at its Content-Length when it said one) rather than held.
type TooLongError struct {
	Limit int64
	// Said is the length the answer announced, 0 when it did not.
	Said int64
	// Event is set when one event of a stream was too long, Image when
	// one image of an answer was.
	Event, Image bool
}

func (e *TooLongError) Error() string {
	if e.Image {
		return catalogue.F("one image of the answer is over the %s Easel reads for an image", mb(e.Limit))
	}
	if e.Event {
		return catalogue.F("one event of the stream is over the %s Easel reads for it", mb(e.Limit))
	}
	if e.Said > 0 {
		return catalogue.F("the answer would be %s, over the %s Easel reads for it", mb(e.Said), mb(e.Limit))
	}
	return catalogue.F("the answer is over the %s Easel reads for it", mb(e.Limit))
}

// mb is a byte count in whole megabytes (or kilobytes, when small).
func mb(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d MB", n>>20)
}

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

// SniffImage checks that data is a PNG, JPEG or WebP image and reads its
// format and size without decoding the pixels.
func SniffImage(data []byte) (format string, w, h int, err error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", 0, 0, errors.New(catalogue.T("the bytes are not a PNG, JPEG or WebP image"))
	}
	return format, cfg.Width, cfg.Height, nil
}

func usageFrom(v gjson.Result) *Usage {
	if !v.Exists() {
		return nil
	}
	u := &Usage{
		InputTokens:  v.Get("input_tokens").Int(),
		OutputTokens: v.Get("output_tokens").Int(),
		TotalTokens:  v.Get("total_tokens").Int(),
		TextTokens:   v.Get("input_tokens_details.text_tokens").Int(),
		ImageTokens:  v.Get("input_tokens_details.image_tokens").Int(),
	}
	if u.InputTokens == 0 { // chat usage names
		u.InputTokens = v.Get("prompt_tokens").Int()
		u.OutputTokens = v.Get("completion_tokens").Int()
	}
	return u
}
