//go:build e2e

package e2e

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/imageio"
	"easel/internal/library"
)

// Expand canvas in the real window: a square opened in Edit is widened
// to 3:2 from the Edit menu with the picture at the left, sent, and the
// result with the square put back exactly (1536x1024) lands in the
// gallery, its parent the result as the service sent it.
func TestExpandCanvasWidensASquare(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	square := image.NewNRGBA(image.Rect(0, 0, 1024, 1024))
	for y := 0; y < 1024; y++ {
		for x := 0; x < 1024; x++ {
			square.SetNRGBA(x, y, color.NRGBA{uint8(x / 4), uint8(y / 4), uint8((x + y) / 8), 255})
		}
	}
	path := filepath.Join(home, "square.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, square); err != nil {
		t.Fatal(err)
	}
	f.Close()
	p := start(t, bin, home, "--demo", path)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.waitPicture(ctx, "the square in the painter", image.Rect(250, 300, 700, 700))
	p.click(70, 13)   // Edit
	p.click(110, 289) // Expand canvas…
	time.Sleep(500 * time.Millisecond)
	p.click(401, 376) // the picture at the left
	time.Sleep(300 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "outpaint-dialog.png"), p.screenshot())
	}
	p.clickBlue(ctx, "the Expand button", image.Rect(600, 550, 760, 600))
	time.Sleep(500 * time.Millisecond)
	p.click(1100, 170) // the prompt, in the side panel
	p.typeText("widen the room to the right")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "widen")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var kept library.Item
	for kept.ID == 0 {
		items, _ := lib.List(ctx, library.Query{Search: "widen", Limit: 10})
		for _, it := range items {
			if it.Kind == "kept" {
				kept = it
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("no result with the square put back: %+v", items)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if kept.Width != 1536 || kept.Height != 1024 {
		t.Errorf("the widened picture is %dx%d, want 1536x1024", kept.Width, kept.Height)
	}
	full, err := lib.Get(ctx, kept.ID)
	if err != nil || len(full.Parents) == 0 {
		t.Fatalf("the widened picture has no parent (%v)", err)
	}
	if raw, err := lib.Get(ctx, full.Parents[0]); err != nil || raw.Kind != "edit" {
		t.Errorf("the widened picture's parent is %+v (%v), want the result as sent", raw, err)
	}
	got, err := imageio.DecodeFile(lib.Path(kept))
	if err != nil {
		t.Fatal(err)
	}
	n := imageio.AsNRGBA(got)
	for y := 0; y < 1024; y += 7 {
		for x := 0; x < 1024; x += 7 {
			if n.NRGBAAt(x, y) != square.NRGBAAt(x, y) {
				t.Fatalf("(%d,%d) is %v, the square's %v: the picture was not put back exactly", x, y, n.NRGBAAt(x, y), square.NRGBAAt(x, y))
			}
		}
	}
}
