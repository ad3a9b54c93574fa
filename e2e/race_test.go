//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestNoDataRaceInRealWindow runs easel built with -race: the widgets are
// built on a goroutine while the main thread opens the window (ui.Run),
// and only the real driver can show that the two never touch the same
// memory. It starts on the demo service and with no profile (the
// first-run dialog), switches every tab, generates, and quits.
func TestNoDataRaceInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_RACE_BIN")
	for _, args := range [][]string{{"--demo"}, {}} {
		home := t.TempDir()
		p := startEnv(t, bin, home, []string{"GORACE=halt_on_error=0"}, args...)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		p.waitDrawn(ctx)
		if len(args) > 0 {
			for _, combo := range []string{"ctrl+1", "ctrl+3", "ctrl+4", "ctrl+2"} {
				p.key(combo)
				time.Sleep(300 * time.Millisecond)
			}
			p.typeText("a quiet harbour")
			p.key("ctrl+Return")
			p.waitInLibrary(ctx, home, "harbour")
		}
		cancel()
		time.Sleep(time.Second)
		p.key("ctrl+q")
		if err := p.waitExit(20 * time.Second); err != nil && !strings.Contains(p.out.String(), "DATA RACE") {
			t.Fatalf("easel %v: exit: %v\n%s", args, err, p.out)
		}
		if out := p.out.String(); strings.Contains(out, "WARNING: DATA RACE") {
			t.Errorf("easel %v: data race:\n%s", args, out)
		}
	}
}
