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

// #57: Edit's work survives a kill. Two references and a stroke of the
// mask over the first; SIGKILL a moment later; the next start, given no
// files, opens Edit with the first reference and its stroke as they were
// (docs/edit-session-restored.png).
func TestEditsWorkSurvivesAKill(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	a, _ := markupSquare(t, home)
	b := filepath.Join(home, "second.png")
	data, _ := os.ReadFile(a)
	if err := os.WriteFile(b, append([]byte(nil), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	painter := image.Rect(250, 300, 700, 700)
	band := image.Rect(320, 430, 580, 470)
	p := start(t, bin, home, "--demo", a, b)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	clean := p.waitPicture(ctx, "the picture in the painter", painter)
	time.Sleep(500 * time.Millisecond)
	clean = p.screenshot()
	p.stroke(300, 600, 450)
	time.Sleep(1500 * time.Millisecond) // the session is written 400 ms after a change
	painted := p.screenshot()
	if n := differingPixels(clean.SubImage(band), painted.SubImage(band)); n < 2000 {
		t.Fatalf("the stroke changed %d pixels of its band", n)
	}
	_ = p.cmd.Process.Kill()
	_ = p.waitExit(10 * time.Second)

	again := start(t, bin, home, "--demo")
	again.waitDrawn(ctx)
	again.waitSettled(ctx)
	again.key("ctrl+3")
	again.waitPicture(ctx, "the first reference back in the painter", painter)
	time.Sleep(1500 * time.Millisecond)
	back := again.screenshot()
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "edit-session-restored.png"), back)
	}
	if n := differingPixels(painted.SubImage(band), back.SubImage(band)); n > 400 {
		t.Errorf("the stroke's band differs in %d pixels after the restart: the mask did not come back", n)
	}
	again.key("ctrl+q")
	if err := again.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, again.out)
	}
}
