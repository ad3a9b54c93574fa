//go:build e2e

package e2e

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// TestGenerateOnDemoLandsInGallery types a prompt in the real window on
// the built-in demo service, generates with streaming previews, and finds
// the image in the library and in the Gallery tab.
func TestGenerateOnDemoLandsInGallery(t *testing.T) {
	p, home, ctx := startDemo(t)
	p.generate("a lighthouse on a cliff at dusk, poster")

	// A preview shows on the job card before the image is in the
	// library: the card's picture fills with an image (a card that only
	// says "Queued" has a plain field there).
	preview := p.waitPicture(ctx, "the job card's preview", cardPreview)
	if n := libraryCount(t, home, "lighthouse"); n != 0 {
		t.Errorf("the first picture on the card came after the image was saved: no preview")
	}
	p.waitInLibrary(ctx, home, "lighthouse")
	done := p.waitPicture(ctx, "the finished card", cardPreview)
	p.key("ctrl+4")
	gallery := p.waitPicture(ctx, "the gallery's first thumbnail", firstGalleryCell)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "generate-preview.png"), preview)
		save(t, filepath.Join(dir, "generate-done.png"), done)
		save(t, filepath.Join(dir, "gallery.png"), gallery)
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// startDemo opens easel on the demo service in a fresh home, and waits
// until its window is drawn; the context bounds the test at a minute.
func startDemo(t *testing.T) (p *proc, home string, ctx context.Context) {
	t.Helper()
	home = t.TempDir()
	p = start(t, binary(t, "EASEL_BIN"), home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	p.waitDrawn(ctx)
	return p, home, ctx
}

// generate types prompt on Text to image and sends it.
func (p *proc) generate(prompt string) {
	p.t.Helper()
	p.key("ctrl+2")
	p.typeText(prompt)
	p.key("ctrl+Return")
}

// The places in a 1280x800 window where a picture shows: the first job
// card's preview on Text to image, the first cell of the Gallery.
var (
	cardPreview      = image.Rect(550, 110, 680, 240)
	firstGalleryCell = image.Rect(10, 160, 150, 300)
)

// waitPicture waits until an image shows in area of the window (many
// coloured pixels, where fields and text are grey) and returns the
// screen.
func (p *proc) waitPicture(ctx context.Context, what string, area image.Rectangle) *image.RGBA {
	p.t.Helper()
	for {
		shot := p.screenshot()
		if coloured(shot, area) >= 2000 {
			return shot
		}
		select {
		case <-ctx.Done():
			save(p.t, filepath.Join(p.t.TempDir(), "timeout.png"), shot)
			p.t.Fatalf("%s never showed (%d coloured pixels in %v)", what, coloured(shot, area), area)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// coloured counts the pixels in area of img that are not grey: the
// theme's fields, text and its anti-aliasing are all grey (the blue of
// a focused field is kept out of the areas looked at).
func coloured(img *image.RGBA, area image.Rectangle) int {
	return countPixels(img, area, func(r, g, b int) bool { return max(r, g, b)-min(r, g, b) > 40 })
}

// countPixels counts the pixels in area of img for which is holds.
func countPixels(img *image.RGBA, area image.Rectangle, is func(r, g, b int) bool) int {
	n := 0
	area = area.Intersect(img.Bounds())
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			i := img.PixOffset(x, y)
			if is(int(img.Pix[i]), int(img.Pix[i+1]), int(img.Pix[i+2])) {
				n++
			}
		}
	}
	return n
}

// libraryCount is how many images whose prompt holds search the library
// of the easel running in home has now.
func libraryCount(t *testing.T, home, search string) int {
	t.Helper()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	n, _ := lib.Count(context.Background(), library.Query{Search: search})
	return n
}

func save(t testing.TB, path string, img image.Image) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// waitInLibrary waits until an image whose prompt holds search is in the
// library of the easel running in home.
func (p *proc) waitInLibrary(ctx context.Context, home, search string) {
	p.t.Helper()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		p.t.Fatal(err)
	}
	defer lib.Close()
	for {
		if n, _ := lib.Count(ctx, library.Query{Search: search}); n > 0 {
			return
		}
		select {
		case <-ctx.Done():
			p.t.Fatalf("the image never reached the library:\n%s", p.out)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
