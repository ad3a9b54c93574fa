package imageio

import (
	"fmt"
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
var vetter func(io.Reader) error

// SetVetter makes v the check every new picture passes first (see
// vetter); main sets it once, before any picture is read. Unset, as in
// tests of this process's own decoding, nothing is vetted.
func SetVetter(v func(io.Reader) error) { vetter = v }

// Vet passes data through the vetter: nil when it drew the picture or no
// vetter is set, else why it could not be drawn.
func Vet(r io.Reader) error {
	if vetter == nil {
		return nil
	}
	return vetter(r)
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
	if err := vetter(io.LimitReader(f, MaxReadBytes)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
