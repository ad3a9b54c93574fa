//go:build e2e

package e2e

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"easel/internal/testsupport/benchfloor"
)

// BenchmarkStartup measures, for easel and for a bare Fyne window built in
// the same run, the time from exec to the first frame with drawn widgets,
// and the resident memory once idle. It reports each as a ratio to the
// bare window (goals: start-up at most 1.2x, memory at most 1.3x): the
// median of the ratios of launches made back to back.
//
// Each program is started two ways in every round: warm, in a home folder
// it keeps for the whole run (its second and later starts, as a user
// starts it every day: Mesa's shader cache, Fyne's font index and Easel's
// own files are there), and cold, in a new empty home (the first start
// after installing). The ratios without a suffix are the warm ones.
func BenchmarkStartup(b *testing.B) {
	easel := binary(b, "EASEL_BIN")
	bare := binary(b, "BARE_BIN")
	easelHome, bareHome := b.TempDir(), b.TempDir()
	// One start each to fill the warm homes' caches; not measured.
	launchOnce(b, bare, bareHome)
	launchOnce(b, easel, easelHome, "--demo")
	// Each round starts the two programs back to back, and a ratio is
	// taken within each pair: a slower moment of the machine (it moves
	// start-up times by a fifth on a 2-core VM) weighs on both alike.
	var warm, cold struct{ easelMS, bareMS, easelRSS, bareRSS, ratio, rssRatio []float64 }
	for i := 0; i < b.N; i++ {
		bareMS, bareRSS := launchOnce(b, bare, bareHome)
		// Easel opens on the demo service, as a user with a profile would:
		// connected, its model list fetched in the background.
		easelMS, easelRSS := launchOnce(b, easel, easelHome, "--demo")
		warm.bareMS, warm.bareRSS = append(warm.bareMS, bareMS), append(warm.bareRSS, bareRSS)
		warm.easelMS, warm.easelRSS = append(warm.easelMS, easelMS), append(warm.easelRSS, easelRSS)
		warm.ratio, warm.rssRatio = append(warm.ratio, easelMS/bareMS), append(warm.rssRatio, easelRSS/bareRSS)

		bareMS, bareRSS = launchOnce(b, bare, b.TempDir())
		easelMS, easelRSS = launchOnce(b, easel, b.TempDir(), "--demo")
		cold.bareMS, cold.bareRSS = append(cold.bareMS, bareMS), append(cold.bareRSS, bareRSS)
		cold.easelMS, cold.easelRSS = append(cold.easelMS, easelMS), append(cold.easelRSS, easelRSS)
		cold.ratio, cold.rssRatio = append(cold.ratio, easelMS/bareMS), append(cold.rssRatio, easelRSS/bareRSS)
		// Each round's figures, for go test -v: the medians alone hide
		// a machine that slowed down for part of the run.
		b.Logf("round %2d: warm %.0f/%.0f ms (%.3f), cold %.0f/%.0f ms (%.3f)", i+1,
			warm.easelMS[i], warm.bareMS[i], warm.ratio[i], cold.easelMS[i], cold.bareMS[i], cold.ratio[i])
	}
	m := benchfloor.Median
	b.ReportMetric(m(warm.easelMS), "easel-first-frame-ms")
	b.ReportMetric(m(warm.bareMS), "bare-first-frame-ms")
	b.ReportMetric(m(warm.ratio), "first-frame-ratio")
	b.ReportMetric(m(cold.easelMS), "easel-first-frame-cold-ms")
	b.ReportMetric(m(cold.bareMS), "bare-first-frame-cold-ms")
	b.ReportMetric(m(cold.ratio), "first-frame-ratio-cold")
	b.ReportMetric(m(warm.easelRSS), "easel-idle-rss-MiB")
	b.ReportMetric(m(warm.bareRSS), "bare-idle-rss-MiB")
	b.ReportMetric(m(warm.rssRatio), "idle-rss-ratio")
	b.ReportMetric(m(cold.rssRatio), "idle-rss-ratio-cold")
}

// launchOnce starts bin in home with args, and measures it.
func launchOnce(b *testing.B, bin, home string, args ...string) (firstFrameMS, idleRSSMiB float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := start(b, bin, home, args...)
	p.waitFirstFrame(ctx)
	firstFrameMS = float64(time.Since(p.started).Microseconds()) / 1000
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
