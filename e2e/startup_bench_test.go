//go:build e2e

package e2e

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"easel/internal/benchfloor"
)

// BenchmarkStartup measures, for easel and for a bare Fyne window built in
// the same run, the time from exec to the first frame with drawn widgets,
// and the resident memory once idle. It reports each as a ratio to the
// bare window (goals: start-up at most 1.2x, memory at most 1.3x).
func BenchmarkStartup(b *testing.B) {
	easel := binary(b, "EASEL_BIN")
	bare := binary(b, "BARE_BIN")
	var easelMS, bareMS, easelRSS, bareRSS []float64
	for i := 0; i < b.N; i++ {
		ms, rss := launchOnce(b, bare)
		bareMS, bareRSS = append(bareMS, ms), append(bareRSS, rss)
		// Easel opens on the demo service, as a user with a profile would:
		// connected, its model list fetched in the background.
		ms, rss = launchOnce(b, easel, "--demo")
		easelMS, easelRSS = append(easelMS, ms), append(easelRSS, rss)
	}
	b.ReportMetric(benchfloor.Median(easelMS), "easel-first-frame-ms")
	b.ReportMetric(benchfloor.Median(bareMS), "bare-first-frame-ms")
	b.ReportMetric(benchfloor.Median(easelMS)/benchfloor.Median(bareMS), "first-frame-ratio")
	b.ReportMetric(benchfloor.Median(easelRSS), "easel-idle-rss-MiB")
	b.ReportMetric(benchfloor.Median(bareRSS), "bare-idle-rss-MiB")
	b.ReportMetric(benchfloor.Median(easelRSS)/benchfloor.Median(bareRSS), "idle-rss-ratio")
}

// launchOnce starts bin with args, and measures it.
func launchOnce(b *testing.B, bin string, args ...string) (firstFrameMS, idleRSSMiB float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	t0 := time.Now()
	p := start(b, bin, b.TempDir(), args...)
	p.waitFirstFrame(ctx)
	firstFrameMS = float64(time.Since(t0).Microseconds()) / 1000
	time.Sleep(2 * time.Second) // idle: let start-up garbage be collected
	idleRSSMiB = rssMiB(b, p.cmd.Process.Pid)
	_ = p.cmd.Process.Kill()
	<-p.done
	return firstFrameMS, idleRSSMiB
}

func rssMiB(b *testing.B, pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS")
	return 0
}
