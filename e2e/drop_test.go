//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Files dragged from another application (a real XDND drag, from a GTK
// window) and dropped on Text to image join Edit's inputs: the window
// switches to Edit.
func TestDroppedFilesGoToEdit(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the drag source")
	}
	home := t.TempDir()
	var files []string
	for _, name := range []string{"first.png", "second.png"} {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewGray(image.Rect(0, 0, 32, 32)))
		p := filepath.Join(home, name)
		os.WriteFile(p, buf.Bytes(), 0o600)
		files = append(files, p)
	}
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.key("ctrl+2")
	// The drag source's window sits at (0,0), 200x200: move Easel aside.
	xdo(t, "windowmove", "--sync", fmt.Sprint(uint32(p.window)), "300", "0")
	time.Sleep(300 * time.Millisecond)
	if n := bluePixels(p.screenshot(), editTabHeader); n > 20 {
		t.Fatalf("Edit is already shown (%d blue pixels on its tab)", n)
	}

	src := exec.Command("/usr/bin/python3", append([]string{"testdata/dragsrc.py"}, files...)...)
	var out bytes.Buffer
	src.Stdout, src.Stderr = &out, &out
	if err := src.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = src.Process.Kill(); _ = src.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		if o, _ := exec.Command("xdotool", "search", "--name", "^dragsrc$").Output(); len(bytes.TrimSpace(o)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the drag source did not open: %s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	xdo(t, "mousemove", "--sync", "100", "100")
	xdo(t, "mousedown", "1")
	for _, x := range []int{150, 250, 400, 600, 800} { // XDND needs several moves
		xdo(t, "mousemove", "--sync", fmt.Sprint(x), "400")
		time.Sleep(150 * time.Millisecond)
	}
	xdo(t, "mouseup", "1")
	p.waitScreen(ctx, "Edit after the drop", func(shot *image.RGBA) bool { return bluePixels(shot, editTabHeader) > 20 })
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "edit-dropped.png"), p.screenshot())
	}
}
