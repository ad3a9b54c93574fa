//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// A kill -9 after the first of four streamed images arrived loses none
// that had arrived (issue 40, item 1): each is on disk before the card
// says it arrived, and the next start puts it in the gallery and lists
// it on the Interrupted card.
func TestAKillKeepsTheImagesThatHadArrived(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	p := start(t, bin, home, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p.sendFour(ctx, "four lighthouses, one cut short")
	journal := filepath.Join(home, "easel", "journal")
	for {
		if found, _ := filepath.Glob(filepath.Join(journal, "*-arrived-*")); len(found) > 0 {
			break
		}
		if ctx.Err() != nil {
			shot := filepath.Join(t.TempDir(), "no-arrival.png")
			save(t, shot, p.screenshot())
			t.Fatalf("no image arrived (the window: %s):\n%s", shot, p.out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond) // the card has said it arrived
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "arrived-before-kill.png"), p.screenshot())
	}
	if err := p.cmd.Process.Kill(); err != nil { // SIGKILL: nothing runs after it
		t.Fatal(err)
	}
	_ = p.waitExit(10 * time.Second)

	again := start(t, bin, home, "--demo")
	again.waitDrawn(ctx)
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var n int
	for n == 0 {
		n, _ = lib.Count(ctx, library.Query{Search: "cut short"})
		if ctx.Err() != nil {
			t.Fatalf("the image that had arrived is not in the gallery after the restart:\n%s", again.out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	items, _ := lib.List(ctx, library.Query{Search: "cut short", Limit: 10})
	for _, it := range items {
		if it.Params.N != 4 || it.Model != "gpt-image-1" || it.Width != 1024 {
			t.Errorf("kept as %+v", it)
		}
	}
	again.key("ctrl+2")
	time.Sleep(800 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "arrived-after-restart.png"), again.screenshot())
	}
	if left, _ := filepath.Glob(filepath.Join(journal, "*-arrived-*")); len(left) != 0 {
		t.Errorf("left in the journal after the restart: %v", left)
	}
}

// sendFour asks Text to image for four streamed images of prompt, in a
// 1280x800 window without a banner (make e2e has a keyring).
func (p *proc) sendFour(ctx context.Context, prompt string) {
	p.t.Helper()
	p.waitDrawn(ctx)
	p.waitSettled(ctx) // the keys go to a window that is ready for them
	p.key("ctrl+2")
	time.Sleep(500 * time.Millisecond)
	p.click(190, 527) // Images
	time.Sleep(500 * time.Millisecond)
	p.click(125, 547) // 4
	time.Sleep(300 * time.Millisecond)
	p.click(270, 166) // the prompt
	p.typeText(prompt)
	p.key("ctrl+Return")
}
