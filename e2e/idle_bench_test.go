//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"easel/internal/testsupport/benchfloor"
)

// BenchmarkIdleCPU measures the CPU an idle window takes with the text
// cursor blinking in a focused field: Easel on Text to image with its
// prompt focused (as it opens), and a bare Fyne window with one focused
// entry, started back to back in each round. It reports the median of
// the rounds' ratios (goal: at most 1.3x). The window is left alone for
// idleSettle, then its threads' CPU time is read over idleWindow.
func BenchmarkIdleCPU(b *testing.B) {
	easel := binary(b, "EASEL_BIN")
	bare := binary(b, "BARE_BIN")
	easelHome, bareHome := b.TempDir(), b.TempDir()
	var easelPct, barePct, ratio []float64
	for i := 0; i < b.N; i++ {
		bp := idleCPU(b, bare, bareHome, "-entry")
		ep := idleCPU(b, easel, easelHome, "--demo")
		barePct, easelPct, ratio = append(barePct, bp), append(easelPct, ep), append(ratio, ep/bp)
		b.Logf("round %2d: easel %.2f %%, bare %.2f %% of a core (%.3f)", i+1, ep, bp, ep/bp)
	}
	m := benchfloor.Median
	b.ReportMetric(m(easelPct), "easel-idle-cpu-%")
	b.ReportMetric(m(barePct), "bare-idle-cpu-%")
	b.ReportMetric(m(ratio), "idle-cpu-ratio")
}

const (
	idleSettle = 3 * time.Second
	idleWindow = 5 * time.Second
)

// idleCPU starts bin, waits for its first frame and idleSettle, and
// returns the share of one core its threads used over idleWindow.
func idleCPU(b *testing.B, bin, home string, args ...string) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := start(b, bin, home, args...)
	defer func() { _ = p.cmd.Process.Kill(); <-p.done }()
	p.waitFirstFrame(ctx)
	time.Sleep(idleSettle)
	pid := p.cmd.Process.Pid
	t0, c0 := time.Now(), cpuNanos(b, pid)
	time.Sleep(idleWindow)
	t1, c1 := time.Now(), cpuNanos(b, pid)
	return 100 * float64(c1-c0) / float64(t1.Sub(t0).Nanoseconds())
}

// cpuNanos is the CPU time all of pid's threads have run, in
// nanoseconds (schedstat's first field: finer than stat's clock ticks,
// which would be a few dozen over a window at these loads).
func cpuNanos(b *testing.B, pid int) int64 {
	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	if err != nil || len(tasks) == 0 {
		b.Fatalf("no schedstat for %d: %v", pid, err)
	}
	var total int64
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			total += n
		}
	}
	return total
}
