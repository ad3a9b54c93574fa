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

	"easel/internal/library"
)

// The painter's image in a 1280x800 window, with a 96x64 first input.
var painterImage = image.Rect(120, 490, 460, 710)

// tinted counts the pixels of area showing the mask's tint over the
// green first image: red, not green.
func tinted(img *image.RGBA, area image.Rectangle) int {
	return countPixels(img, area, func(r, g, b int) bool { return r > g+40 && r > b+40 })
}

// stroke drags the mouse from (x0, y) to (x1, y) of the window in small
// steps, as a hand would.
func (p *proc) stroke(x0, x1, y int) {
	w := fmt.Sprint(uint32(p.window))
	xdo(p.t, "mousemove", "--window", w, "--sync", fmt.Sprint(x0), fmt.Sprint(y))
	xdo(p.t, "mousedown", "1")
	for x := x0; x <= x1; x += 20 {
		xdo(p.t, "mousemove", "--window", w, "--sync", fmt.Sprint(x), fmt.Sprint(y))
		time.Sleep(20 * time.Millisecond)
	}
	xdo(p.t, "mouseup", "1")
}

// dropFiles drops files on the window from another application (a real
// XDND drag, from a GTK window at (0,0), 200x200): the window is moved
// aside, the files dragged to the point 800,400 of the screen, landed
// waits for what the drop does, and then the source is closed and the
// window put back at (0,0).
func (p *proc) dropFiles(files []string, landed func()) {
	t := p.t
	t.Helper()
	xdo(t, "windowmove", "--sync", fmt.Sprint(uint32(p.window)), "300", "0")
	time.Sleep(300 * time.Millisecond)
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
	landed()
	_ = src.Process.Kill()
	xdo(t, "windowmove", "--sync", fmt.Sprint(uint32(p.window)), "0", "0")
}

// Files dragged from another application (a real XDND drag, from a GTK
// window) and dropped on Text to image join Edit's inputs in order: the
// window switches to Edit. A stroke paints the mask on the first, Ctrl+Z
// undoes it, a second stroke paints again; the edit is sent, and both
// the result as sent and the one with the unmasked area kept reach the
// gallery, made from the two files and the mask.
func TestDropPaintAndSendAnEdit(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the drag source")
	}
	home := t.TempDir()
	var files []string
	for i, name := range []string{"first.png", "second.png"} {
		var buf bytes.Buffer
		img := image.NewNRGBA(image.Rect(0, 0, 96-32*i, 64))
		for j := 0; j < len(img.Pix); j += 4 {
			copy(img.Pix[j:], []byte{42, 138, 58, 255}) // green
		}
		png.Encode(&buf, img)
		p := filepath.Join(home, name)
		os.WriteFile(p, buf.Bytes(), 0o600)
		files = append(files, p)
	}
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitDrawn(ctx)
	p.key("ctrl+2")
	time.Sleep(300 * time.Millisecond)
	if n := bluePixels(p.screenshot(), editTabHeader); n > 20 {
		t.Fatalf("Edit is already shown (%d blue pixels on its tab)", n)
	}
	p.dropFiles(files, func() {
		p.waitScreen(ctx, "Edit after the drop", func(shot *image.RGBA) bool { return bluePixels(shot, editTabHeader) > 20 })
		if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
			save(t, filepath.Join(dir, "edit-dropped.png"), p.screenshot())
		}
	})
	p.waitPicture(ctx, "the first input in the painter", painterImage)
	if n := tinted(p.screenshot(), painterImage); n > 50 {
		t.Fatalf("%d tinted pixels before any stroke", n)
	}
	p.stroke(160, 420, 560)
	first := p.waitScreen(ctx, "the first stroke", func(shot *image.RGBA) bool { return tinted(shot, painterImage) > 3000 })
	p.key("ctrl+z")
	p.waitScreen(ctx, "the stroke undone", func(shot *image.RGBA) bool { return tinted(shot, painterImage) < 50 })
	p.stroke(160, 420, 660)
	second := p.waitScreen(ctx, "the second stroke", func(shot *image.RGBA) bool { return tinted(shot, painterImage) > 3000 })
	// The second stroke is lower: the first stroke's row is clear now.
	row := func(shot *image.RGBA, y int) int {
		return tinted(shot, image.Rect(painterImage.Min.X, y-3, painterImage.Max.X, y+3))
	}
	if row(first, 560) == 0 || row(second, 560) != 0 || row(second, 660) == 0 {
		t.Errorf("strokes: first at 560: %d, second at 560: %d, at 660: %d", row(first, 560), row(second, 560), row(second, 660))
	}
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "edit-painted.png"), second)
	}

	p.click(1100, 170) // the prompt, in the side panel
	p.typeText("a red chair on the lower half")
	p.key("ctrl+Return")
	p.waitInLibrary(ctx, home, "chair")
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var items []library.Item
	for len(items) < 2 {
		items, _ = lib.List(ctx, library.Query{Search: "chair", Limit: 10})
		if ctx.Err() != nil {
			t.Fatalf("%d of the 2 results in the gallery", len(items))
		}
		time.Sleep(100 * time.Millisecond)
	}
	kinds := map[string]bool{}
	for _, it := range items {
		kinds[it.Kind] = true
		stored, err := lib.Inputs().Of(ctx, it.ID)
		if err != nil || len(stored) != 3 || stored[0].Name != "first.png" || stored[1].Name != "second.png" || stored[2].Role != library.RoleMask {
			t.Errorf("item %d (%s) made from %+v (%v), want first.png, second.png and the mask", it.ID, it.Kind, stored, err)
		}
	}
	if !kinds["edit"] || !kinds["kept"] {
		t.Errorf("kinds %v, want the result as sent and the one with the unmasked area kept", kinds)
	}
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		p.waitPicture(ctx, "the finished card", image.Rect(590, 520, 700, 640))
		save(t, filepath.Join(dir, "edit-sent.png"), p.screenshot())
	}
}
