//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/library"
)

// #53: a picture whose decoding fails is decoded first in a child
// process: the window stays up, the failure is remembered beside the
// thumbnails with its reason, and the details say Easel could not draw
// it (docs/undrawable.png). The other pictures' thumbnails, made by
// children too, show.
func TestAnUndrawablePictureIsSaidAndTheWindowStaysUp(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 320, 240)))
	var broken library.Item
	for _, prompt := range []string{"a readable lighthouse", "a lighthouse whose file broke"} {
		id, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 320, Height: 240},
			Kind: "generate", Prompt: prompt, Model: "gpt-image-1"})
		if err != nil {
			t.Fatal(err)
		}
		if broken, err = lib.Get(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	// Its bytes are a PNG's head and then nothing a decoder can use; its
	// cached thumbnail is gone, so the window must make one.
	if err := os.WriteFile(lib.Path(broken), append(buf.Bytes()[:40], bytes.Repeat([]byte{0xff}, 4000)...), 0o600); err != nil {
		t.Fatal(err)
	}
	thumbs, _ := filepath.Glob(filepath.Join(home, "easel", "thumbs", "*.png"))
	for _, p := range thumbs {
		_ = os.Remove(p)
	}
	lib.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo")
	p.waitSettled(ctx)
	p.key("ctrl+4")
	var undrawable []string
	for deadline := time.Now().Add(30 * time.Second); len(undrawable) == 0 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		undrawable, _ = filepath.Glob(filepath.Join(home, "easel", "thumbs", "*.undrawable"))
	}
	if len(undrawable) != 1 {
		t.Fatalf("%d pictures remembered as undrawable, want 1:\n%s", len(undrawable), p.out)
	}
	why, _ := os.ReadFile(undrawable[0])
	if !strings.Contains(string(why), "PNG") && !strings.Contains(string(why), "image") {
		t.Errorf("the reason kept: %q", why)
	}
	made, _ := filepath.Glob(filepath.Join(home, "easel", "thumbs", "*.png"))
	if len(made) != 1 {
		t.Errorf("%d thumbnails made, want the readable picture's", len(made))
	}
	time.Sleep(700 * time.Millisecond)
	p.key("Right")
	p.key("Left")
	time.Sleep(1500 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "undrawable.png"), p.screenshot())
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, p.out)
	}
}
