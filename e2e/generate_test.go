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
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.key("ctrl+2")
	time.Sleep(300 * time.Millisecond)
	before := p.screenshot()
	p.typeText("a lighthouse on a cliff at dusk, poster")
	p.key("ctrl+Return")

	// A preview shows on the job card before the image is done.
	time.Sleep(1500 * time.Millisecond)
	preview := p.screenshot()
	if n := differingPixels(before, preview); n < 5000 {
		t.Errorf("no job card with a preview appeared (%d pixels changed)", n)
	}

	p.waitInLibrary(ctx, home, "lighthouse")
	time.Sleep(500 * time.Millisecond)
	done := p.screenshot()
	p.key("ctrl+4")
	time.Sleep(800 * time.Millisecond)
	gallery := p.screenshot()
	if n := differingPixels(done, gallery); n < 5000 {
		t.Errorf("the Gallery did not show (%d pixels changed)", n)
	}
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

func save(t *testing.T, path string, img image.Image) {
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
