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
)

// savePNG writes img as name under SCREENSHOT_DIR, when it is set.
func savePNG(t *testing.T, name string, img image.Image) {
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// With no profile, the window opens with the first-run dialog over it,
// and still quits cleanly.
func TestFirstRunDialogInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	time.Sleep(time.Second)
	shot := p.screenshot()
	savePNG(t, "first-run.png", shot)
	// The dialog dims the window behind it: its centre is drawn, and the
	// screen differs from the demo window's.
	demo := start(t, bin, t.TempDir(), "--demo")
	demo.waitDrawn(ctx)
	time.Sleep(time.Second)
	if n := differingPixels(shot, demo.screenshot()); n < 20000 {
		t.Errorf("first run looks like the demo window (%d pixels differ): no dialog?", n)
	}
	demo.key("ctrl+q")
	_ = demo.waitExit(10 * time.Second)
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit: %v\n%s", err, p.out)
	}
}

// Settings (Ctrl+,) over a window with two saved profiles; written to
// docs/settings.png by make screenshot.
func TestSettingsInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	writeProfiles(t, home, `{"active":"demo","profiles":[
 {"id":"p-studio","name":"Studio gateway","base_url":"https://gateway.example.com/v1","chat_model":"gpt-4.1","image_model":"gpt-image-1","image_defaults":{"size":"1536x1024","quality":"high","output_format":"webp"},"request_timeout_seconds":900,"max_jobs":2},
 {"id":"p-local","name":"Local (Ollama)","base_url":"http://localhost:11434/v1"}]}`)
	p := start(t, bin, home)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	before := p.waitDrawn(ctx)
	time.Sleep(time.Second)
	p.key("ctrl+comma")
	time.Sleep(1500 * time.Millisecond)
	shot := p.screenshot()
	if n := differingPixels(before, shot); n < 20000 {
		t.Errorf("Ctrl+, changed only %d pixels: no Settings?", n)
	}
	savePNG(t, "settings.png", shot)
	p.key("Escape")
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit: %v\n%s", err, p.out)
	}
}
