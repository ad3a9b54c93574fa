//go:build e2e

package e2e

import (
	"context"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/library"
)

// #54: the spend view says, row by row, how many requests the gateway's
// own figure for the key settled. Fourteen `easel gen` through new-api's
// console, whose usage Easel reads at most twelve times in twenty
// minutes: the first are settled one by one, the last wait for the next
// reading, and the window opened on that gallery says so in its rows and
// summary (docs/spend-settled.png).
func TestTheSpendViewSaysWhichRequestsTheGatewaySettled(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	const key = "sk-e2e-relay-0123456789"
	base := serveDemoWith(t, bin, "--console", "new-api", "--group-key", key+"=relay:0.5")
	home := t.TempDir()
	env := append(homeEnv(home), "OPENAI_BASE_URL="+base, "OPENAI_API_KEY="+key)
	out := t.TempDir()
	for i := range 14 {
		cmd := exec.Command(bin, "gen", "--prompt", "a lighthouse at dusk", "--quality", "low", "--size", "1024x1024", "--out", out)
		cmd.Env = append(os.Environ(), env...)
		if _, stderr, code := runCommand(t, cmd); code != 0 {
			t.Fatalf("gen %d: %s", i, stderr)
		}
	}
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := lib.Ledger().Entries(context.Background(), time.Time{})
	lib.Close()
	settled := 0
	for _, e := range entries {
		if e.Settled != nil {
			settled++
		}
	}
	if len(entries) != 14 || settled == 0 || settled == 14 {
		t.Fatalf("%d entries, %d settled: want some settled and some waiting", len(entries), settled)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := startEnv(t, bin, home, env)
	shot := p.waitSettled(ctx)
	p.click(1080, 778) // the status bar's spend
	p.waitScreen(ctx, "the Spend view", func(img *image.RGBA) bool { return differingPixels(shot, img) > 200000 })
	time.Sleep(1500 * time.Millisecond)
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "spend-settled.png"), p.screenshot())
	}
	p.key("Escape")
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, p.out)
	}
}
