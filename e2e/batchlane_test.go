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
	p.click(700, 160) // the values, after "animal = "
	p.key("End")
	p.typeText("cat, dog, owl, elk, fox, yak, emu, ant, bee, cow, hen, pig")
	time.Sleep(500 * time.Millisecond)
	p.click(315, 298) // Cheaper, within 24 h
	time.Sleep(700 * time.Millisecond)
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir != "" {
		save(t, filepath.Join(dir, "batch-lane-choice.png"), p.screenshot())
	}
	p.click(1170, 400) // Run batch
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && pendingBatches(t, home) == 0 {
		time.Sleep(200 * time.Millisecond)
	}
	if pendingBatches(t, home) != 1 {
		t.Fatalf("no batch was made:\n%s", p.out)
	}
	time.Sleep(1500 * time.Millisecond)
	p.click(827, 733) // Close
	time.Sleep(2 * time.Second)
	if dir != "" {
		save(t, filepath.Join(dir, "batch-pending.png"), p.screenshot())
	}
	// Closed while the batch is in progress, and opened again.
	p.key("ctrl+q")
	if err := p.waitExit(10 * time.Second); err != nil {
		t.Fatalf("exit: %v\n%s", err, p.out)
	}
	if n := libraryCount(t, home, "at dawn"); n != 0 {
		t.Fatalf("the batch was done before the window closed (%d pictures): make the demo's pace slower", n)
	}
	time.Sleep(2 * time.Second)
	again := startEnv(t, bin, home, env)
	again.waitDrawn(ctx)
	deadline = time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(told(), "Batch done") {
		time.Sleep(300 * time.Millisecond)
	}
	if !strings.Contains(told(), "Batch done") || !strings.Contains(told(), "All 12 pictures are in the gallery.") {
		t.Errorf("no notification of the batch on the session bus:\n%s", told())
	}
	time.Sleep(1500 * time.Millisecond)
	if dir != "" {
		save(t, filepath.Join(dir, "batch-done.png"), again.screenshot())
	}
	again.key("ctrl+q")
	if err := again.waitExit(10 * time.Second); err != nil {
		t.Errorf("exit: %v\n%s", err, again.out)
	}
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if n, _ := lib.Count(ctx, library.Query{Search: "at dawn"}); n != 12 {
		t.Errorf("%d pictures in the gallery, want 12", n)
	}
	rows, _ := lib.Ledger().Entries(ctx, time.Time{})
	if len(rows) != 12 {
		t.Errorf("%d ledger rows, want 12", len(rows))
	}
	for _, r := range rows {
		if r.Cost == nil || !strings.Contains(r.Note, "Batch API's price, 50%") {
			t.Errorf("row %+v", r)
		}
	}
}

// pendingBatches is how many batches of the gallery at home are at work.
func pendingBatches(t *testing.T, home string) int {
	t.Helper()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		return 0
	}
	defer lib.Close()
	pending, _ := lib.Journal().Batches().Pending(context.Background())
	return len(pending)
}
