//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/imageio"
)

// cardResult is where a finished card's first result shows on Text to
// image in a 1280x800 window.
var cardResult = image.Rect(676, 236, 742, 300)

// detailsPicture is where the gallery's details show the open image in a
// 1280x800 window (the part left of x=1100 stays on the screen when the
// window is moved aside).
var detailsPicture = image.Rect(930, 220, 1080, 500)

// A gallery image dragged out of the window and dropped on another app
// (a real GTK drop target, taking files as a file manager does) reaches
// it as the file in the gallery: the app reads the 1024x1024 image from
// the URI it was given.
func TestImageDraggedOutDropsOnAnotherApp(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the drop target")
	}
	p, home, _ := galleryWithOneImage(t)
	lines := dragToTarget(t, p, firstGalleryCell.Min.Add(firstGalleryCell.Size().Div(2)), "gallery-dragging-out.png")
	u, err := url.Parse(lines[0])
	if err != nil || u.Scheme != "file" {
		t.Fatalf("the other app got %q, want a file URI", lines[0])
	}
	if !strings.HasPrefix(u.Path, filepath.Join(home, "easel")) {
		t.Errorf("dropped %s, want a file of the gallery under %s", u.Path, home)
	}
	img, err := imageio.DecodeFile(u.Path)
	if err != nil {
		t.Fatalf("the other app cannot read what it was given: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1024 || b.Dy() != 1024 {
		t.Errorf("the other app read %v, want 1024x1024", b)
	}
	time.Sleep(300 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "gallery-dropped-out.png"), p.screenshot())
	}
}

// A finished job's result is dragged from its card on Text to image onto
// another app, which gets the gallery's file.
func TestCardResultDraggedOutDropsOnAnotherApp(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the drop target")
	}
	p, home, ctx := startDemo(t)
	p.generate("a red kite over the dunes")
	p.waitInLibrary(ctx, home, "kite")
	p.waitPicture(ctx, "the card's result", cardResult)
	lines := dragToTarget(t, p, cardResult.Min.Add(cardResult.Size().Div(2)), "card-dragging-out.png")
	u, err := url.Parse(lines[0])
	if err != nil || u.Scheme != "file" || !strings.HasPrefix(u.Path, filepath.Join(home, "easel")) {
		t.Fatalf("the other app got %q, want a gallery file under %s", lines[0], home)
	}
	if _, err := imageio.DecodeFile(u.Path); err != nil {
		t.Fatalf("the other app cannot read what it was given: %v", err)
	}
}

// The picture the gallery's details show drags out as its file too.
func TestDetailsPictureDraggedOutDropsOnAnotherApp(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the drop target")
	}
	p, home, ctx := galleryWithOneImage(t)
	c := firstGalleryCell.Min.Add(firstGalleryCell.Size().Div(2))
	p.click(c.X, c.Y)
	p.waitPicture(ctx, "the details' picture", detailsPicture)
	lines := dragToTarget(t, p, detailsPicture.Min.Add(detailsPicture.Size().Div(2)), "details-dragging-out.png")
	if u, err := url.Parse(lines[0]); err != nil || !strings.HasPrefix(u.Path, filepath.Join(home, "easel")) {
		t.Fatalf("the other app got %q, want a gallery file under %s", lines[0], home)
	}
}

// Esc during a drag out cancels it: the other app gets nothing, and the
// thumbnail stays selected.
func TestEscCancelsADragOut(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no python3 for the drop target")
	}
	p, _, _ := galleryWithOneImage(t)
	dragOnto(t, p, firstGalleryCell.Min.Add(firstGalleryCell.Size().Div(2)), "gallery-drag-cancelled.png", true)
}

// galleryWithOneImage starts Easel on the demo service, makes one image
// ("a red kite over the dunes") and waits for its thumbnail, first in the
// Gallery.
func galleryWithOneImage(t *testing.T) (p *proc, home string, ctx context.Context) {
	t.Helper()
	p, home, ctx = startDemo(t)
	p.generate("a red kite over the dunes")
	p.waitInLibrary(ctx, home, "kite")
	p.key("ctrl+4")
	p.waitPicture(ctx, "the gallery's first thumbnail", firstGalleryCell)
	return p, home, ctx
}

// dragToTarget moves Easel aside, opens a GTK drop target at (0,0),
// drags from from (a point of Easel's window) onto it, and returns what
// the target printed: the URIs dropped, then "dropped". shot names the
// screenshot taken mid-drag.
func dragToTarget(t *testing.T, p *proc, from image.Point, shot string) []string {
	t.Helper()
	return dragOnto(t, p, from, shot, false)
}

// dragOnto is dragToTarget, pressing Esc before the release when esc is
// set; then it returns nil once the target has had two seconds to say
// whether anything was dropped.
func dragOnto(t *testing.T, p *proc, from image.Point, shot string, esc bool) []string {
	t.Helper()
	// The drop target's window sits at (0,0), 200x200: move Easel aside.
	xdo(t, "windowmove", "--sync", fmt.Sprint(uint32(p.window)), "300", "0")
	time.Sleep(300 * time.Millisecond)

	target := exec.Command("/usr/bin/python3", "testdata/droptarget.py")
	var out bytes.Buffer
	target.Stdout, target.Stderr = &out, &out
	if err := target.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Process.Kill(); _ = target.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if o, _ := exec.Command("xdotool", "search", "--name", "^droptarget$").Output(); len(bytes.TrimSpace(o)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the drop target did not open: %s", out.String())
		}
	}
	time.Sleep(500 * time.Millisecond)

	c := from
	xdo(t, "mousemove", "--sync", fmt.Sprint(300+c.X), fmt.Sprint(c.Y))
	xdo(t, "mousedown", "1")
	for _, x := range []int{300 + c.X - 10, 300 + c.X - 40, 280, 200, 150, 100, 100} { // XDND needs several moves
		xdo(t, "mousemove", "--sync", fmt.Sprint(x), fmt.Sprint(min(c.Y, 150)))
		time.Sleep(150 * time.Millisecond)
	}
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, shot), p.screenshot())
	}
	if esc {
		p.key("Escape")
		time.Sleep(300 * time.Millisecond)
	}
	xdo(t, "mouseup", "1")
	if esc {
		time.Sleep(2 * time.Second)
		if strings.Contains(out.String(), "dropped") {
			t.Fatalf("Esc did not cancel the drag: the other app got %q\n%s", out.String(), p.out)
		}
		return nil
	}

	var lines []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		lines = strings.Fields(out.String())
		if len(lines) > 0 && lines[len(lines)-1] == "dropped" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing was dropped on the other app; it printed %q\n%s", out.String(), p.out)
		}
	}
	if len(lines) != 2 {
		t.Fatalf("the other app got %q, want one file", lines)
	}
	return lines
}
