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
	h.Until("connected", func() bool { return h.Session().Client() != nil })
	var p = h.Session().Current()
	var reqs []jobs.Request
	for i := range 3 {
		reqs = append(reqs, jobs.Request{Profile: p.ID, Generate: &api.GenerateRequest{Prompt: fmt.Sprintf("a kite %d", i),
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"}}})
	}
	rec, err := batchlane.New(h.Session().Client(), h.Library(), batchlane.Options{}).Send(context.Background(), batchlane.Batch{Requests: reqs, Label: "kites"})
	if err != nil {
		t.Fatal(err)
	}
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
