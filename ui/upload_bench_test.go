package ui

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/demoservice"
	"easel/internal/testsupport/benchrefs"
)

// TestHelperDemoService is not a test: demoChild runs the test binary
// with EASEL_DEMO_ADDR set, and this serves the demo service there.
func TestHelperDemoService(t *testing.T) {
	addr := os.Getenv("EASEL_DEMO_ADDR")
	if addr == "" {
		t.Skip("helper process for BenchmarkSixteenReferenceEdit")
	}
	if _, err := demoservice.New(demoservice.Config{}).Listen(context.Background(), addr); err != nil {
		os.Exit(3)
	}
	select {}
}

// demoChild starts the demo service in a child process and returns its
// base URL once it answers.
func demoChild(b *testing.B) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDemoService$")
	cmd.Env = append(os.Environ(), "EASEL_DEMO_ADDR="+addr)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := "http://" + addr + "/v1"
	for range 100 {
		if resp, err := http.Get(base + "/models"); err == nil {
			resp.Body.Close()
			return base
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Fatal("the demo service did not start")
	return ""
}

// BenchmarkSixteenReferenceEdit drops sixteen references of 50 MB into
// Edit and sends them to the demo service, and reports the longest
// callback on the UI goroutine from the drop to the saved result (goal:
// at most 16 ms, one frame): checking the files, making their
// thumbnails, the upload with its progress on the card and the answer
// all run off it.
func BenchmarkSixteenReferenceEdit(b *testing.B) {
	refs := benchrefs.Make(b, 16)
	// The service runs in a process of its own, as a real one would:
	// in this one, its parsing and decoding of 830 MB took the cores
	// from the window's callbacks.
	base := demoChild(b)
	var longest time.Duration
	for range b.N {
		ea := New(test.NewTempApp(b), isolated(b, Options{BaseURL: base}))
		clock := &callbackClock{}
		clock.install(ea)
		clock.untimed(ea, func() { ea.SelectTab(TabEdit) })
		clock.reset()
		clock.untimed(ea, func() { ea.edit.AddFiles(refs) })
		clock.waitFor(b, ea, "the sixteen references in the strip", func() bool { return len(ea.edit.Inputs()) == 16 })
		clock.untimed(ea, func() {
			ea.edit.Prompt().SetText("the sixteen together")
			ea.edit.PrimaryAction()
		})
		clock.waitFor(b, ea, "the edit's end", func() bool {
			cards := ea.edit.Jobs().Cards()
			return len(cards) == 1 && strings.HasPrefix(cards[0].Status.Text, "Done")
		})
		longest = max(longest, clock.reset())
		ea.runner.Wait()
		clock.untimed(ea, ea.win.Close)
		ea.lib.Close()
	}
	b.Logf("sixteen 50 MB references dropped, sent and answered: the longest UI callback took %.1f ms (goal 16 ms)", ms(longest))
	b.ReportMetric(ms(longest), "longest-ui-callback-ms")
}
