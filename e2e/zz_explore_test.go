//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"image"
	"path/filepath"
	"testing"
	"time"
)

func TestZZExplore(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	dir := "/tmp/explore"
	p := start(t, bin, home, "--demo", wideFirst(t, home))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p.waitSettled(ctx)
	time.Sleep(2 * time.Second)
	save(t, filepath.Join(dir, "edit-1280.png"), p.screenshot())
	p.drag(1150, 405, 1150, 700)
	time.Sleep(time.Second)
	save(t, filepath.Join(dir, "edit-divider-down.png"), p.screenshot())
	xdo(t, "mousemove", "--window", fmt.Sprint(uint32(p.window)), "--sync", "1040", "400")
	for range 5 {
		xdo(t, "click", "5")
	}
	time.Sleep(500 * time.Millisecond)
	save(t, filepath.Join(dir, "edit-scrolled5.png"), p.screenshot())
	for range 40 {
		xdo(t, "click", "5")
	}
	time.Sleep(500 * time.Millisecond)
	save(t, filepath.Join(dir, "edit-scrolled-end.png"), p.screenshot())
	p.click(940, 176)
	time.Sleep(700 * time.Millisecond)
	save(t, filepath.Join(dir, "edit-tools.png"), p.screenshot())
	p.key("Escape")
	_ = image.Rect
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}
