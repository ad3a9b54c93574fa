package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/library"
	"easel/ui/chrome"
)

// A job the last kill cut off (its journal entry never crossed out) is
// listed at the next start on the tab it was sent from, with its prompt
// and Retry, and the banner says so; Retry sends it again and it lands
// in the gallery.
func TestAJobTheLastKillCutOffIsListedWithRetry(t *testing.T) {
	o := isolated(t, Options{Demo: true})
	dir, err := library.Dir()
	if err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	gen := &api.GenerateRequest{Prompt: "a lighthouse the kill cut off", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}
	if err := lib.Journal().Begin(context.Background(), library.Journalled{Job: "job-killed", Profile: "demo", Started: time.Now().Add(-time.Hour), Generate: gen}); err != nil {
		t.Fatal(err)
	}
	lib.Close()

	ea := newApp(t, test.NewTempApp(t), o)
	t.Cleanup(ea.win.Close)
	var card = ea.generate.Jobs().Card("job-killed")
	if card == nil || card.Status.Text != "Interrupted" || !card.CanRetry() {
		t.Fatalf("the cut-off job is not listed with Retry: %+v", card)
	}
	if !strings.Contains(ea.banner.Text(chrome.BannerInterrupted), "still at the service when Easel last closed") {
		t.Errorf("banner %q", ea.banner.Text(chrome.BannerInterrupted))
	}
	waitFor(t, ea, "the demo service", func() bool { return ea.session.Client() != nil })
	onUI(ea, card.Retry)
	waitFor(t, ea, "the retried image", func() bool {
		n, _ := ea.lib.Count(context.Background(), library.Query{Search: "lighthouse"})
		return n == 1
	})
}
