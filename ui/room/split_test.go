package room_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/ui/room"
	"easel/ui/room/roomtest"
)

// SplitRequest makes n requests of one image, each its own copy.
func TestSplitRequestMakesOneImageEach(t *testing.T) {
	g := &api.GenerateRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "m", N: 3}}
	parts := room.SplitRequest(jobs.Request{Profile: "p1", Generate: g, Parents: []int64{7}})
	if len(parts) != 3 {
		t.Fatalf("%d parts", len(parts))
	}
	for _, p := range parts {
		if p.Generate.N != 1 || p.Generate == g || p.Profile != "p1" || p.Parents[0] != 7 {
			t.Errorf("part %+v", p)
		}
	}
	if g.N != 3 {
		t.Errorf("the original changed: n=%d", g.N)
	}
}

// Through a gateway known to make one image per request, asking for 3
// offers 3 requests of one; taking the offer lands 3 images.
func TestOneImageGatewayIsOfferedSeparateRequests(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{Quirks: []demoservice.Quirk{demoservice.QuirkOneImage}})
	var mu sync.Mutex
	var saved []int64
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Done {
			mu.Lock()
			saved = append(saved, e.ItemIDs...)
			mu.Unlock()
		}
	}
	profile := h.Session().Current().ID
	if err := h.Library().Memory().Learn(context.Background(), library.KeyFor(profile, "", "gpt-image-1", false),
		[]honesty.Check{{Trait: honesty.Count, Honoured: false, Asked: "4", Got: "1"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	var picker = h.Models().New(api.EndpointImages, "", "gpt-image-1")
	h.Until("the model list", func() bool { _, bad := picker.Unlisted(); return !bad })
	req := &api.GenerateRequest{Prompt: "a lighthouse", ImageOptions: api.ImageOptions{Size: "1024x1024", N: 3}}
	h.UI(func() {
		picker.Entry.SetText("gpt-image-1")
		room.SubmitImageJob(h, picker, &req.ImageOptions, jobs.Request{Generate: req}, func(s string) { t.Error(s) })
	})
	offer, said := h.Overlay("Send 3 requests of 1 image")
	if !strings.Contains(said, "one image per request (asked 4, got 1") {
		t.Errorf("the offer says %q", said)
	}
	h.UI(offer.OnTapped)
	h.Until("three images", func() bool { mu.Lock(); defer mu.Unlock(); return len(saved) == 3 })
}
