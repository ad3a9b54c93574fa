package library

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	_ "golang.org/x/image/webp" // decode WebP originals

	"easel/internal/atomicfile"
	"easel/internal/catalogue"
	"easel/internal/colour"
	"easel/internal/imageio"
)

// ThumbSize is the longest side of a thumbnail, in pixels.
const ThumbSize = 256

// Thumbnails are the gallery's cached thumbnails, one PNG per image in
// thumbs/, made when first asked for (or as the image is saved) and
// dropped with it.
type Thumbnails struct {
	dir string
	// path is an item's image file.
	path func(Item) string
	// draw makes a thumbnail's PNG from an image's bytes: MakeThumbnail
	// in this process, unless Quarantine set another.
	draw func([]byte) ([]byte, error)
}

// Quarantine makes each new thumbnail with draw (the window's: in a
// child process, internal/quarantine) instead of in this process. A
// picture draw refuses with a *Undrawable-making error is remembered as
// undrawable beside its thumbnail and never decoded here.
func (l *Thumbnails) Quarantine(draw func([]byte) ([]byte, error)) { l.draw = draw }

// Undrawable is why a picture's thumbnail could not be made: the
// picture is kept as it came, and not decoded again.
type Undrawable struct{ Reason string }

func (e *Undrawable) Error() string {
	return catalogue.F("Easel could not draw this picture: %s", e.Reason)
}

// failedPath holds why an item's thumbnail could not be made.
func (l *Thumbnails) failedPath(it Item) string {
	return strings.TrimSuffix(l.thumbPath(it), ".png") + ".undrawable"
}

// drawingPath marks a thumbnail being made, with the picture's name: left
// behind, the process ended while a decoder drew it (setAside).
func (l *Thumbnails) drawingPath(it Item) string {
	return strings.TrimSuffix(l.thumbPath(it), ".png") + ".drawing"
}

// setAside turns each picture a process died drawing (its .drawing mark
// left) into one Easel could not draw, so this start does not die of it
// too, and returns the notice that says which (none when none). Only the
// window, holding the gallery alone, calls it: a command line's process
// must not take a running window's drawing for a crash.
func (l *Thumbnails) setAside() []string {
	marks, _ := filepath.Glob(filepath.Join(l.dir, "*.drawing"))
	var names []string
	for _, m := range marks {
		name, _ := os.ReadFile(m)
		failed := strings.TrimSuffix(m, ".drawing") + ".undrawable"
		if err := atomicfile.Write(failed, []byte(catalogue.T("Easel stopped while drawing this picture at an earlier start"))); err != nil {
			continue
		}
		_ = os.Remove(m)
		names = append(names, string(name))
	}
	if len(names) == 0 {
		return nil
	}
	return []string{catalogue.N("The last start ended while drawing %d picture (%s): it is set aside, kept as it came, and shown as a picture Easel could not draw.",
		len(names), len(names), strings.Join(names, ", "))}
}

// Thumbnails are the gallery's cached thumbnails (see Thumbnails).
func (l *Library) Thumbnails() *Thumbnails { return l.thumbnails }

func (l *Thumbnails) thumbPath(it Item) string {
	base := strings.TrimSuffix(filepath.Base(it.File), filepath.Ext(it.File))
	return filepath.Join(l.dir, base+".png")
}

// Thumbnail returns the path of the item's thumbnail (at most ThumbSize
// pixels, PNG so transparency survives), making it the first time.
func (l *Thumbnails) Thumbnail(it Item) (string, error) {
	p := l.thumbPath(it)
	switch _, err := os.Stat(p); {
	case err == nil:
		return p, nil
	case !errors.Is(err, fs.ErrNotExist):
		// Not "missing" but unreadable (permissions, a drive gone):
		// say so rather than make a new one over it.
		return "", fmt.Errorf(catalogue.T("library: cannot look at the thumbnail of image %d: %w"), it.ID, err)
	}
	if why, err := os.ReadFile(l.failedPath(it)); err == nil {
		return "", &Undrawable{Reason: string(why)}
	}
	data, err := os.ReadFile(l.path(it))
	if err != nil {
		return "", fmt.Errorf(catalogue.T("library: cannot read image %d: %w"), it.ID, err)
	}
	// Marked while it is drawn: a process that dies here leaves the mark,
	// and the next start sets the picture aside instead of dying again.
	mark := l.drawingPath(it)
	_ = atomicfile.Write(mark, []byte(markName(it)))
	thumb, err := l.draw(data)
	_ = os.Remove(mark)
	var refused interface{ Undrawable() string }
	if errors.As(err, &refused) {
		// Remembered, so neither this start nor the next decodes it again.
		_ = atomicfile.Write(l.failedPath(it), []byte(refused.Undrawable()))
		return "", &Undrawable{Reason: refused.Undrawable()}
	}
	if err != nil {
		return "", fmt.Errorf(catalogue.T("library: image %d: %w"), it.ID, err)
	}
	if err := atomicfile.Write(p, thumb); err != nil {
		return "", fmt.Errorf(catalogue.T("library: cannot cache the thumbnail: %w"), err)
	}
	return p, nil
}

// render starts making a thumbnail from pixels in hand, read in space
// (nil: sRGB), on a goroutine of its own: Add scales and encodes it
// while the image's own file is written and synced, the CPU's work
// beside the disk's (a 3840×2160 picture's is tens of milliseconds of
// each), and writes it after. The channel gets the PNG, nil on failure.
func render(img image.Image, space *colour.Space) <-chan []byte {
	out := make(chan []byte, 1)
	go func() {
		data, err := imageio.EncodePNG(imageio.InSRGB(imageio.Fit(img, ThumbSize), space))
		if err != nil {
			data = nil
		}
		out <- data
	}()
	return out
}

// put writes its thumbnail, rendered; best effort, as a thumbnail
// not written now is made when shown.
func (l *Thumbnails) put(it Item, rendered <-chan []byte) {
	if data := <-rendered; data != nil {
		_ = atomicfile.Write(l.thumbPath(it), data)
	}
}

// MakeThumbnailSized decodes an image and scales it to fit side pixels.
// Its colours are sRGB, as the screen draws them (imageio.FitForScreen).
func MakeThumbnailSized(data []byte, side int) (image.Image, error) {
	return imageio.FitForScreen(data, side)
}

// MakeThumbnail decodes an image and scales it to fit ThumbSize, as PNG.
func MakeThumbnail(data []byte) ([]byte, error) {
	img, err := MakeThumbnailSized(data, ThumbSize)
	if err != nil {
		return nil, err
	}
	return imageio.EncodePNG(img)
}

// markName names a picture in a notice: its prompt's start, else its file.
func markName(it Item) string {
	name := strings.TrimSpace(it.Prompt)
	if r := []rune(name); len(r) > 40 {
		name = string(r[:40]) + "…"
	}
	if name == "" {
		name = filepath.Base(it.File)
	}
	return fmt.Sprintf("%q", name)
}
