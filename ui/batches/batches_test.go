package batches_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/batchlane"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/ui/room/roomtest"
)

// A batch made before the window last closed is followed again at the
// start: its card shows, its pictures land in the gallery, and the
// desktop hears once that it is done.
func TestABatchMadeBeforeAStartIsPickedUp(t *testing.T) {
	h := roomtest.New(t)
	rec := made(t, h, 3)
	h.UI(func() { h.Batches().Resume() })
	h.Until("the batch done", func() bool {
		_, note, ok := h.Batches().Card(rec.ID)
		return ok && strings.Contains(note, "All 3 pictures are in the gallery.")
	})
	if n, _ := h.Library().Count(context.Background(), library.Query{}); n != 3 {
		t.Errorf("%d pictures in the gallery", n)
	}
	h.UI(func() {
		if len(h.Notified) != 1 || !strings.HasPrefix(h.Notified[0], "Batch done: ") {
			t.Errorf("told %q", h.Notified)
		}
	})
}

// made is a batch of n kites made on h's service, as the window makes
// one, before the panel follows it.
func made(t *testing.T, h *roomtest.Host, n int) library.BatchRecord {
	t.Helper()
	h.Until("connected", func() bool { return h.Session().Client() != nil })
	p := h.Session().Current()
	var reqs []jobs.Request
	for i := range n {
		reqs = append(reqs, jobs.Request{Profile: p.ID, Generate: &api.GenerateRequest{Prompt: fmt.Sprintf("a kite %d", i),
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"}}})
	}
	rec, err := batchlane.New(h.Session().Client(), h.Library(), batchlane.Options{}).Send(context.Background(), batchlane.Batch{Requests: reqs, Label: "kites"})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A batch whose window ran out with 2 of 4 made offers the other 2 as a
// new batch, which makes them; they are then no longer listed as cut off.
func TestWhatABatchDidNotMakeIsSentAgain(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{BatchExpireAfter: 2})
	rec := made(t, h, 4)
	h.UI(func() { h.Batches().Resume() })
	h.Until("the batch expired", func() bool {
		_, note, ok := h.Batches().Card(rec.ID)
		return ok && strings.Contains(note, "2 in the gallery; 2 not made")
	})
	h.UI(func() {
		if !h.Batches().Resend(rec.ID) {
			t.Fatal("no resend offered")
		}
	})
	h.Until("the rest made", func() bool {
		n, _ := h.Library().Count(context.Background(), library.Query{})
		return n == 4
	})
	if cut, _ := h.Library().Journal().CutOff(context.Background()); len(cut) != 0 {
		t.Errorf("%d requests still listed as cut off", len(cut))
	}
}

// A picture sent in the background has a card of its own, says it
// survives the window, and lands in the gallery when it is done.
func TestARenderInTheBackground(t *testing.T) {
	h := roomtest.New(t)
	h.Until("connected", func() bool { return h.Session().Client() != nil })
	sent := fmt.Errorf("not yet")
	h.UI(func() {
		req := jobs.Request{Generate: &api.GenerateRequest{Prompt: "a harbour at night", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Quality: "high"}}}
		h.Batches().Render(h.Session().Client(), h.Session().Current(), req, "a harbour at night", func(err error) { sent = err })
	})
	h.Until("sent", func() bool { return sent == nil })
	h.Until("in the gallery", func() bool {
		n, _ := h.Library().Count(context.Background(), library.Query{})
		return n == 1
	})
	pending, _ := h.Library().Journal().Batches().Recent(context.Background(), 1)
	h.Until("its card ended", func() bool {
		status, _, ok := h.Batches().Card(pending[0].ID)
		return ok && strings.HasPrefix(status, "Done · 1 of 1 done")
	})
}
