package imageio

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"net/http"

	"github.com/dustin/go-humanize"

	"easel/internal/catalogue"
)

// MaxUploadBytes is the largest input image the service takes (the spec:
// each image under 50 MB).
const MaxUploadBytes = 50 << 20

// TooBigError is an input file over the upload limit. Easel refuses it
// rather than send part of it.
type TooBigError struct {
	Name  string
	Limit int64
}

func (e *TooBigError) Error() string {
	return catalogue.F("%s is larger than %s, the most the service takes for one image: save it smaller (or as JPEG) and add it again",
		e.Name, humanize.IBytes(uint64(e.Limit)))
}

// ReadInput reads a whole input image named name from r, refusing one
// over limit bytes (never cutting it), and sniffs its content type.
func ReadInput(r io.Reader, name string, limit int64) (data []byte, contentType string, err error) {
	data, err = io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, "", fmt.Errorf(catalogue.T("cannot read %s: %w"), name, err)
	}
	if int64(len(data)) > limit {
		return nil, "", &TooBigError{Name: name, Limit: limit}
	}
	if len(data) == 0 {
		return nil, "", fmt.Errorf(catalogue.T("%s is empty (0 bytes): it holds no image"), name)
	}
	// The one pixel check answers and thumbnails use: a small file whose
	// header claims billions of pixels is refused before anything decodes
	// it.
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		if err := CheckPixels(cfg.Width, cfg.Height); err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
	}
	return data, http.DetectContentType(data), nil
}
