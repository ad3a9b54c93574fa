//go:build e2e

package e2e

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// dialogArea is where a dialog sits in a 1280x800 window: its buttons are
// the only primary-coloured pixels there.
var dialogArea = image.Rect(300, 200, 980, 600)

// exportButton is the Gallery details' Export… button for a square image
// with a one-line prompt, at 1280x800.
var exportButton = image.Pt(972, 698)

// clickBlue clicks the middle of the primary-coloured button in area,
// once one shows there.
func (p *proc) clickBlue(ctx context.Context, what string, area image.Rectangle) {
	p.t.Helper()
	shot := p.waitScreen(ctx, what, func(s *image.RGBA) bool { return bluePixels(s, area) > 500 })
	var sx, sy, n int
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			if bluePixels(shot, image.Rect(x, y, x+1, y+1)) == 1 {
				sx, sy, n = sx+x, sy+y, n+1
			}
		}
	}
	p.click(sx/n, sy/n)
}

// Export in the real window writes the new file whole beside the target
// and renames it into place: a link at the chosen name is confirmed first,
// naming where it points, and replaced itself; the file it points to is
// not touched. (Export used to open the target through Fyne's save
// dialog, truncating it and following links, before anything was
// encoded.)
func TestExportReplacesALinkNotItsTarget(t *testing.T) {
	p, home, ctx := startDemo(t)
	p.generate("a kite")
	p.waitInLibrary(ctx, home, "kite")
	p.key("ctrl+4")
	p.waitPicture(ctx, "the gallery's first thumbnail", firstGalleryCell)

	victim := filepath.Join(home, "victim.txt")
	os.WriteFile(victim, []byte("keep me"), 0o600)
	link := filepath.Join(home, "a-kite-1.png") // the name Export offers, in HOME (no Pictures folder)
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	p.click(firstGalleryCell.Min.X+60, firstGalleryCell.Min.Y+60)
	p.waitPicture(ctx, "the details' picture", image.Rect(913, 197, 1233, 517))
	p.click(exportButton.X, exportButton.Y)
	p.clickBlue(ctx, "the Export dialog", dialogArea) // Export
	time.Sleep(300 * time.Millisecond)
	p.clickBlue(ctx, "the confirmation to replace the link", dialogArea) // Replace
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := os.Lstat(link)
		if err == nil && st.Mode().IsRegular() && st.Size() > 1000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the export never replaced the link (%v, %v)", st, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep me" {
		t.Errorf("the link's target was written: %q", got)
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".tmp" {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}
