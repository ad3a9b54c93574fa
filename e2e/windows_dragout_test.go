//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A gallery image dragged out of Easel.exe under Wine and dropped on
// another Windows app (e2e/wintarget, an OLE drop target reading CF_HDROP
// as Explorer does) reaches it as the gallery's file.
func TestWindowsImageDraggedOutDropsOnAnotherApp(t *testing.T) {
	w := wineRelease(t)
	exe := filepath.Join(t.TempDir(), "wintarget.exe")
	build := exec.Command("go", "build", "-o", exe, "./wintarget")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the drop target: %v\n%s", err, out)
	}
	p, home, ctx := startWineDemo(t)
	p.generate("a red kite over the dunes")
	p.waitInLibrary(ctx, home, "kite")
	p.key("ctrl+4")
	p.waitPicture(ctx, "the gallery's first thumbnail", firstGalleryCell)
	xdo(t, "windowmove", "--sync", fmt.Sprint(uint32(p.window)), "300", "0")
	time.Sleep(500 * time.Millisecond)

	target := w.command(exe)
	var out bytes.Buffer
	target.Stdout, target.Stderr = &out, &out
	if err := target.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = target.Process.Kill(); _ = target.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if o, _ := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^droptarget$").Output(); len(bytes.TrimSpace(o)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the drop target did not open: %s", out.String())
		}
	}
	time.Sleep(time.Second)

	r := windowRect(t, p.window)
	c := firstGalleryCell.Min.Add(firstGalleryCell.Size().Div(2)).Add(r.Min)
	xdo(t, "mousemove", "--sync", fmt.Sprint(c.X), fmt.Sprint(c.Y))
	xdo(t, "mousedown", "1")
	for _, x := range []int{c.X - 10, c.X - 40, 280, 200, 150, 100, 100, 100} {
		xdo(t, "mousemove", "--sync", fmt.Sprint(x), "100")
		time.Sleep(200 * time.Millisecond)
	}
	xdo(t, "mouseup", "1")

	var lines []string
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		lines = strings.Split(strings.TrimSpace(strings.ReplaceAll(out.String(), "\r", "")), "\n")
		if lines[len(lines)-1] == "dropped" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing was dropped on the other app; it printed %q\n%s", out.String(), p.out)
		}
	}
	want := winPath(filepath.Join(home, "easel"))
	if len(lines) != 2 || !strings.HasPrefix(strings.ToLower(lines[0]), strings.ToLower(want)) {
		t.Fatalf("the other app got %q, want one file of the gallery under %s", lines, want)
	}
	// After the drop the window still answers a click (on the Edit tab):
	// OLE's loop took the button's release, and Easel gave Fyne one.
	p.click(255, 53)
	p.waitScreen(ctx, "Edit after a click on its tab", func(shot *image.RGBA) bool { return bluePixels(shot, editTabHeader) > 20 })
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "windows-dragged-out.png"), p.screenshot())
	}
}
