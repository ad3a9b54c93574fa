package ui

import (
	"net/http/httptest"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/testsupport/hostile"
)

// Through the window's own path (the runner, the saver, the job card), a
// hostile answer of 200 images for one keeps one, says so once on the
// card, and an error full of escape sequences reaches the card clean.
func TestAHostileServiceThroughTheWindow(t *testing.T) {
	ts := httptest.NewServer(hostile.Server{})
	t.Cleanup(ts.Close)
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{BaseURL: ts.URL + "/v1"}))
	t.Cleanup(ea.win.Close)
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	waitFor(t, ea, "the model list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	for _, name := range ea.generate.Options().Model.Listed() {
		if strings.ContainsAny(name, "\x1b\x07\u202e") {
			t.Errorf("the model picker lists %q", name)
		}
	}
	submit := func(model string) {
		req := api.GenerateRequest{Prompt: "hostile " + model, ImageOptions: api.ImageOptions{Model: model, Size: "1024x1024", N: 1}}
		if _, err := ea.runner.Submit(asGenerate(ea, jobs.Request{Profile: ea.session.Current().ID, Service: ea.session.Client(), Generate: &req})); err != nil {
			t.Fatal(err)
		}
	}
	submit(hostile.ManyImages)
	submit(hostile.EvilError)
	ea.runner.Wait()
	waitFor(t, ea, "two finished cards", func() bool {
		n := 0
		for _, c := range ea.generate.Jobs().Cards() {
			if c.CanRetry() || strings.HasPrefix(c.Status.Text, "Done") {
				n++
			}
		}
		return n == 2
	})
	waitImages(t, ea, "hostile", 1)
	onUI(ea, func() {
		text := topTextOf(ea.generate.Jobs().Box)
		if !strings.Contains(text, "199 images more than were asked for") {
			t.Errorf("the cards do not say what was dropped:\n%s", text)
		}
		if strings.ContainsAny(text, "\x1b\x07\x08\x00\u202e") {
			t.Errorf("a card shows control characters:\n%q", text)
		}
	})
}
