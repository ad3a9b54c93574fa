package room_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/ui/room"
	"easel/ui/room/roomtest"
)

// A batch that would pass the daily cap is stopped before anything is
// sent: the window asks with the numbers, and "Don't send" sends none of
// it. Within the cap, it goes without a question.
func TestABatchOverTheBudgetIsStoppedBeforeAnythingIsSent(t *testing.T) {
	profile := &config.Profile{ID: "p-budget", Name: "Budgeted", Budget: config.Budget{Daily: 1.00}}
	h := roomtest.NewWith(t, roomtest.Options{Profile: profile, Quirks: []demoservice.Quirk{demoservice.QuirkOneImage}})
	h.Until("connected", func() bool { return h.Session().Client() != nil })
	ctx := context.Background()
	spent := 0.80
	if _, err := h.Library().Ledger().Record(ctx, library.Entry{Profile: "p-budget", Model: "gpt-image-1", Kind: library.SpendGenerate,
		Outcome: library.Billed, Cost: &spent, Currency: pricing.USD}); err != nil {
		t.Fatal(err)
	}
	if err := h.Library().Memory().Learn(ctx, library.KeyFor("p-budget", "", "gpt-image-1", false), []honesty.Check{{Trait: honesty.Count, Honoured: false, Asked: "4", Got: "1"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	var submitted int
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Queued {
			submitted++
		}
	}
	picker := h.Models().New(api.EndpointImages, "", "gpt-image-1")
	h.Until("the model list", func() bool { _, bad := picker.Unlisted(); return !bad })
	// Four high squares, $0.17 each: $0.67 on top of $0.80 passes $1.00.
	req := &api.GenerateRequest{Prompt: "a lighthouse", ImageOptions: api.ImageOptions{Size: "1024x1024", Quality: "high", N: 4}}
	h.UI(func() {
		picker.Entry.SetText("gpt-image-1")
		room.SubmitImageJob(h, picker, &req.ImageOptions, jobs.Request{Generate: req}, func(s string) { t.Error(s) })
	})
	tap := func(label string) string {
		b, said := h.Overlay(label)
		h.UI(b.OnTapped)
		return said
	}
	tap("Send 4 requests of 1 image") // the batch: four requests
	// Nothing in the question has the focus, so Enter and Esc reach the
	// window's dialog keys (a focused button swallowed them).
	h.Overlay("Don't send")
	h.UI(func() {
		if f := h.Window().Canvas().Focused(); f != nil {
			t.Errorf("the question gives the keys to %T", f)
		}
	})
	said := tap("Don't send")
	if !strings.Contains(said, "from $0.80 to $1.47, over the daily cap of $1.00") || !strings.Contains(said, "These 4 requests are estimated at $0.67 together") {
		t.Errorf("the question says %q", said)
	}
	time.Sleep(100 * time.Millisecond)
	h.UI(func() {})
	if submitted != 0 || h.Runner().Running() != 0 {
		t.Errorf("%d jobs were submitted over the budget", submitted)
	}
	// One low square ($0.01) stays within the cap: no question.
	small := &api.GenerateRequest{Prompt: "a pebble", ImageOptions: api.ImageOptions{Size: "1024x1024", Quality: "low", N: 1}}
	h.UI(func() {
		room.SubmitImageJob(h, picker, &small.ImageOptions, jobs.Request{Generate: small}, func(s string) { t.Error(s) })
	})
	h.Until("the small job", func() bool { return submitted == 1 })
}
