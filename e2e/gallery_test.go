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

// In the real window: the Gallery's first image is clicked, Shift+Right
// twice chooses two more, Ctrl+E opens the export, and Export writes the
// three to the folder (the home here, Easel's default), each a whole
// image named from its prompt. Screenshots of the grid with a selection
// go to SCREENSHOT_DIR.
func TestKeyboardSelectionExports(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	seedColoured(t, home, 6)
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.key("ctrl+4")
	p.waitPicture(ctx, "the gallery's first cell", firstGalleryCell)
	p.click(80, 200)
	time.Sleep(300 * time.Millisecond)
	p.key("shift+Right")
	p.key("shift+Right")
	time.Sleep(500 * time.Millisecond)
	shot := p.screenshot()
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "gallery-selection.png"), shot)
	}
	p.key("ctrl+e")
	time.Sleep(800 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "gallery-export-dialog.png"), p.screenshot())
	}
	p.click(684, 580) // the dialog's Export
	var pngs []string
	for {
		pngs = nil
		entries, _ := os.ReadDir(home)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".png") {
				pngs = append(pngs, e.Name())
			}
		}
		if len(pngs) >= 3 {
			break
		}
		select {
		case <-ctx.Done():
			save(t, filepath.Join(t.TempDir(), "timeout.png"), p.screenshot())
			t.Fatalf("%d of 3 images exported: %v", len(pngs), pngs)
		case <-time.After(100 * time.Millisecond):
		}
	}
	time.Sleep(300 * time.Millisecond)
	if len(pngs) != 3 {
		t.Errorf("%d images exported, want the 3 selected: %v", len(pngs), pngs)
	}
	for _, name := range pngs {
		data, _ := os.ReadFile(filepath.Join(home, name))
		if _, err := png.Decode(bytes.NewReader(data)); err != nil || !strings.HasPrefix(name, "a-paid-poster-") {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := os.Stat(filepath.Join(home, name+".json")); err == nil {
			t.Errorf("%s has a JSON file: PNG text was the choice", name)
		}
	}
}

// seedColoured puts n coloured images in the library of home.
func seedColoured(t *testing.T, home string, n int) {
	t.Helper()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	for i := 0; i < n; i++ {
		img := image.NewNRGBA(image.Rect(0, 0, 96, 96))
		for p := 0; p < len(img.Pix); p += 4 {
			copy(img.Pix[p:], []byte{uint8(200 - 30*i), 60, uint8(40 * i), 255})
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		if _, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 96, Height: 96},
			Kind: "generate", Prompt: "a paid poster"}); err != nil {
			t.Fatal(err)
		}
	}
}
