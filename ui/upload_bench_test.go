package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/testsupport/benchrefs"
	"easel/internal/testsupport/demochild"
)

// TestHelperDemoService is not a test: it serves the demo service in
// the child demochild.Start runs.
func TestHelperDemoService(t *testing.T) { demochild.Serve(t) }

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
	base := demochild.Start(b, "TestHelperDemoService")
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
