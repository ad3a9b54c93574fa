package ui

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/demoservice"
	"easel/internal/testsupport/benchrefs"
)

// BenchmarkSixteenReferenceEdit drops sixteen references of 50 MB into
// Edit and sends them to the demo service, and reports the longest
// callback on the UI goroutine from the drop to the saved result (goal:
// at most 16 ms, one frame): checking the files, making their
// thumbnails, the upload with its progress on the card and the answer
// all run off it.
func BenchmarkSixteenReferenceEdit(b *testing.B) {
	refs := benchrefs.Make(b, 16)
	var longest time.Duration
	for range b.N {
		ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
		ea := New(test.NewTempApp(b), isolated(b, Options{BaseURL: ts.URL + "/v1"}))
		clock := &callbackClock{}
		clock.install(ea)
		onUI(ea, func() { ea.SelectTab(TabEdit) })
		clock.reset()
		onUI(ea, func() { ea.edit.AddFiles(refs) })
		waitUntilFor(b, ea, "the sixteen references in the strip", 2*time.Minute, func() bool { return len(ea.edit.Inputs()) == 16 })
		onUI(ea, func() {
			ea.edit.Prompt().SetText("the sixteen together")
			ea.edit.PrimaryAction()
		})
		waitUntilFor(b, ea, "the edit's end", 2*time.Minute, func() bool {
			cards := ea.edit.Jobs().Cards()
			return len(cards) == 1 && strings.HasPrefix(cards[0].Status.Text, "Done")
		})
		longest = max(longest, clock.reset())
		ea.runner.Wait()
		onUI(ea, ea.win.Close)
		ea.lib.Close()
		ts.Close()
	}
	b.Logf("sixteen 50 MB references dropped, sent and answered: the longest UI callback took %.1f ms (goal 16 ms)", ms(longest))
	b.ReportMetric(ms(longest), "longest-ui-callback-ms")
}
