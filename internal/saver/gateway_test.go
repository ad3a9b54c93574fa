package saver

import (
	"context"
	"image"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/testsupport/fixture"
)

// Through a gateway that ignores streams and makes one image per
// request: the first job's card and its gallery items say so, Easel
// remembers it for the profile and model, and the next job goes without
// streaming, saying why before it is sent. Forget starts afresh.
func TestGatewayQuirksAreKeptLearntAndShapeTheNextJob(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkNoImageStream, demoservice.QuirkOneImage}}))
	t.Cleanup(ts.Close)
	client := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-gateway-test-0123456789"})
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	var mu sync.Mutex
	var events []jobs.Event
	finished := make(chan jobs.Event, 4)
	runner := jobs.New(client, Library{Lib: lib}, func(e jobs.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
		if e.State.Final() {
			finished <- e
		}
	}, jobs.Options{Memory: lib.Memory(), Tick: time.Hour})
	send := func() (sending, done jobs.Event) {
		t.Helper()
		mu.Lock()
		events = nil
		mu.Unlock()
		_, err := runner.Submit(jobs.Request{Profile: "p-gw", Generate: &api.GenerateRequest{Prompt: "a lighthouse",
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", N: 2, Stream: true, PartialImages: 2}}})
		if err != nil {
			t.Fatal(err)
		}
		done = <-finished
		mu.Lock()
		defer mu.Unlock()
		for _, e := range events {
			if e.State == jobs.Sending {
				sending = e
			}
		}
		return sending, done
	}

	sending, done := send()
	if done.State != jobs.Done || len(sending.Notes) != 0 || !sending.Job.Request.Generate.Stream {
		t.Fatalf("first job: %v, notes %q", done.State, sending.Notes)
	}
	said := strings.Join(done.Honesty.Sentences(), "; ")
	for _, want := range []string{"asked for 2 images, the service sent 1", "no previews"} {
		if !strings.Contains(said, want) {
			t.Errorf("the card says %q, lacking %q", said, want)
		}
	}
	it, err := lib.Get(context.Background(), done.ItemIDs[0])
	if err != nil || len(it.Honesty.Departures()) != 2 {
		t.Errorf("the gallery item keeps %+v (%v)", it.Honesty, err)
	}
	known, _ := lib.Memory().Traits(context.Background(), "p-gw", "gpt-image-1")
	if len(known) == 0 {
		t.Fatal("nothing remembered")
	}

	sending, done = send()
	if done.State != jobs.Done || sending.Job.Request.Generate.Stream {
		t.Fatalf("second job streamed: %v", done.State)
	}
	notes := strings.Join(sending.Notes, " ")
	if !strings.Contains(notes, "No previews") || !strings.Contains(notes, "one image per request") {
		t.Errorf("before sending, the card says %q", notes)
	}
	if _, ok := done.Honesty.Find(honesty.Stream); ok {
		t.Errorf("an unstreamed request was measured for streaming: %+v", done.Honesty)
	}

	if err := lib.Memory().Forget(context.Background(), "p-gw", ""); err != nil {
		t.Fatal(err)
	}
	if sending, _ = send(); !sending.Job.Request.Generate.Stream || len(sending.Notes) != 0 {
		t.Errorf("after Forget the job is still shaped: %q", sending.Notes)
	}
}

// A masked edit through a gateway that ignores the mask: the done event
// (the card) and the kept item (the gallery's details) carry the share of
// the protected area the service changed, and that Easel restored it.
func TestIgnoredMaskIsMeasuredAndKept(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Quirks: []demoservice.Quirk{demoservice.QuirkIgnoreMask}}))
	t.Cleanup(ts.Close)
	client := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-mask-test-0123456789"})
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	done := make(chan jobs.Event, 1)
	runner := jobs.New(client, Library{Lib: lib}, func(e jobs.Event) {
		if e.State.Final() {
			done <- e
		}
	}, jobs.Options{Memory: lib.Memory(), Tick: time.Hour})
	img := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	mask := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{255, 0, 255, 255})
		if (i/4)%256 < 128 {
			mask.Pix[i+3] = 255 // the left half is protected
		}
	}
	enc := func(m image.Image) []byte {
		b := fixture.PNG(t, m)
		return b
	}
	edit := &api.EditRequest{Prompt: "a boat on the right", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"},
		Images: []api.InputImage{{Name: "a.png", ContentType: "image/png", Data: enc(img)}},
		Mask:   &api.InputImage{Name: "mask.png", ContentType: "image/png", Data: enc(mask)}}
	if _, err := runner.Submit(jobs.Request{Profile: "p", Edit: edit, Keep: &jobs.Keep{Feather: 4}}); err != nil {
		t.Fatal(err)
	}
	e := <-done
	m, ok := e.Honesty.Find(honesty.Mask)
	if e.State != jobs.Done || !ok || m.Changed < 0.9 || m.Honoured || !e.Honesty.Restored {
		t.Fatalf("done %v, mask check %+v (%v), restored %v", e.State, m, ok, e.Honesty.Restored)
	}
	if !strings.Contains(strings.Join(e.Honesty.Sentences(), ";"), "Easel restored it") {
		t.Errorf("the card says %q", e.Honesty.Sentences())
	}
	for _, id := range e.ItemIDs {
		it, err := lib.Get(context.Background(), id)
		if c, ok := it.Honesty.Find(honesty.Mask); err != nil || !ok || c.Changed < 0.9 {
			t.Errorf("item %d (%s) keeps %+v (%v)", id, it.Kind, it.Honesty, err)
		}
	}
	known, _ := lib.Memory().Known(context.Background(), library.KeyFor("p", "", "gpt-image-1", true))
	if !slices.ContainsFunc(known, func(k honesty.Known) bool { return k.Trait == honesty.Mask && !k.Honoured }) {
		t.Errorf("not remembered: %+v", known)
	}
}
