//go:build e2e

package e2e

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// Starting an edit from a result starts from that picture alone: two
// references left in Edit are not sent with it (issue 40, item 4, where
// an outpaint went out with ten inputs, eight of them unrelated).
func TestAnEditFromAResultSendsThatPictureAlone(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	a, _ := markupSquare(t, home)
	b := filepath.Join(home, "other.png")
	data, _ := os.ReadFile(a)
	if err := os.WriteFile(b, append([]byte(nil), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	p := start(t, bin, home, "--demo", a, b) // two references in Edit
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the picture in the painter", image.Rect(250, 300, 700, 700))
	p.key("ctrl+2")
	time.Sleep(500 * time.Millisecond)
	p.click(270, 166) // the prompt
	p.typeText("a lone boat")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "lone")
	time.Sleep(1500 * time.Millisecond)
	p.click(editThisX, editThisY) // the card's "Edit this result"
	time.Sleep(1000 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "edit-starts-alone.png"), p.screenshot())
	}
	p.key("ctrl+3")
	p.typeText("paint the boat red")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "boat red")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	items, _ := lib.List(ctx, library.Query{Search: "boat red", Limit: 5})
	for _, it := range items {
		ins, _ := lib.Inputs().Of(ctx, it.ID)
		if len(ins) != 1 {
			t.Errorf("the edit from the result went out with %d inputs, not the picture alone", len(ins))
		}
	}
}

// Where the single result's "Edit this result" sits on the first card.
var editThisX, editThisY = 744, 210
