//go:build e2e

package e2e

import (
	"context"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
	"easel/internal/testsupport/fixture"
)

// A file dropped on the Gallery (a real XDND drag) joins it as an
// imported picture that keeps its file's name: the Gallery's search
// finds it by that name, and the details say where it came from
// (gallery-imported.png; in Edit, edit-imported.png).
func TestAFileDroppedOnTheGalleryKeepsItsName(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the drag source")
	}
	home := t.TempDir()
	file := filepath.Join(home, "Logo final.png")
	if err := os.WriteFile(file, fixture.SolidPNG(t, 320, 200, color.NRGBA{R: 30, G: 90, B: 200, A: 255}), 0o600); err != nil {
		t.Fatal(err)
	}
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitSettled(ctx)
	p.key("ctrl+4")
	p.dropFiles([]string{file}, func() { p.waitInLibrary(ctx, home, "logo final") })

	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	items, err := lib.List(ctx, library.Query{Kinds: []string{"imported"}})
	lib.Close()
	if err != nil || len(items) != 1 || items[0].SourceName != "Logo final.png" {
		t.Fatalf("the gallery's imports: %+v, %v; want one named Logo final.png", items, err)
	}
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		p.click(80, 230) // the grid's picture, in the details
		time.Sleep(time.Second)
		save(t, filepath.Join(dir, "gallery-imported.png"), p.screenshot())
		p.click(1173, 618) // Edit this: the picture named by its file
		time.Sleep(time.Second)
		save(t, filepath.Join(dir, "edit-imported.png"), p.screenshot())
	}
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, p.out)
	}
}
