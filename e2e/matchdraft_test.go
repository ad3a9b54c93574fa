//go:build e2e

package e2e

import (
	"context"
	"image"
	"image/color"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// "Match the first image" comes back after a restart as the choice, not
// as the size it sent for the first image then (issue 40, item 5): a
// wide picture opened after a square one is sent at a wide size.
func TestMatchTheFirstImageSurvivesARestart(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	picture := func(name string, w, h int) string {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 90, 255})
			}
		}
		path := filepath.Join(home, name)
		save(t, path, img)
		return path
	}
	square, wide := picture("square.png", 600, 600), picture("wide.png", 900, 600)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	p := start(t, bin, home, "--demo", square)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the square in the painter", image.Rect(250, 300, 700, 700))
	p.click(1100, 170) // the prompt
	p.typeText("match after a restart")
	time.Sleep(300 * time.Millisecond)
	p.key("ctrl+q")
	if err := p.waitExit(20 * time.Second); err != nil {
		t.Fatalf("quit: %v", err)
	}

	again := start(t, bin, home, "--demo", wide)
	again.waitDrawn(ctx)
	again.waitSettled(ctx)
	again.waitPicture(ctx, "the wide picture in the painter", image.Rect(250, 300, 700, 500))
	again.key("ctrl+3")
	time.Sleep(300 * time.Millisecond)
	again.key("ctrl+Return")
	again.waitInLibrary(ctx, home, "restart")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	items, _ := lib.List(ctx, library.Query{Search: "restart", Limit: 5})
	for _, it := range items {
		if it.Kind == "edit" && it.Params.Size != "1536x1024" {
			t.Errorf("the wide picture was sent at %s: the restored draft kept the square's size, not \"Match the first image\"", it.Params.Size)
		}
	}
}
