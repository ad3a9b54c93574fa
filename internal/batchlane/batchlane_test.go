package batchlane_test

import (
	"context"
	"fmt"
	"image"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/batchlane"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/saver"
	"easel/internal/testsupport/fixture"
)

// square is a PNG of one grey.
func square(t *testing.T, grey uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 64, 64))
	for i := range img.Pix {
		img.Pix[i] = grey
	}
	b := fixture.PNG(t, img)
	return b
}

func setup(t *testing.T, cfg demoservice.Config) (*batchlane.Lane, *library.Library, *jobs.Runner, *demoservice.Server) {
	t.Helper()
	srv := demoservice.New(cfg)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-lane-test-0123456789"})
	return batchlane.New(c, lib, batchlane.Options{Poll: time.Millisecond}), lib, saver.Runner(lib, nil), srv
}

func twelve() []jobs.Request {
	var reqs []jobs.Request
	for i := range 12 {
		reqs = append(reqs, jobs.Request{Profile: "p-demo", Generate: &api.GenerateRequest{Prompt: fmt.Sprintf("a lighthouse, variant %d", i+1),
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"}}})
	}
	return reqs
}

// Twelve generations through the Batch API land in the gallery, each with
// a ledger row at half the live price, and nothing is left in the
// journal.
func TestATemplateBatchLandsInTheGalleryAtTheBatchPrice(t *testing.T) {
	lane, lib, runner, srv := setup(t, demoservice.Config{})
	ctx := context.Background()
	rec, err := lane.Send(ctx, batchlane.Batch{Requests: twelve(), Label: "a lighthouse, variant {n}"})
	if err != nil {
		t.Fatal(err)
	}
	if srv.Batch.Batches() != 1 || rec.Total != 12 {
		t.Fatalf("%d batches made, record %+v", srv.Batch.Batches(), rec)
	}
	if cut, _ := lib.Journal().CutOff(ctx); len(cut) != 0 {
		t.Errorf("a batch at work is listed as cut off: %d", len(cut))
	}
	rec, err = lane.Follow(ctx, rec.ID, batchlane.Through(runner, nil), nil)
	if err != nil || rec.Ended.IsZero() || rec.Status != api.BatchCompleted {
		t.Fatalf("followed to %+v, %v", rec, err)
	}
	if n, _ := lib.Count(ctx, library.Query{}); n != 12 {
		t.Errorf("%d pictures in the gallery, want 12", n)
	}
	entries, err := lib.Ledger().Entries(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 12 {
		t.Fatalf("%d ledger rows", len(entries))
	}
	for _, e := range entries {
		if e.Cost == nil || *e.Cost <= 0 || !strings.Contains(e.Note, "Batch API's price, 50%") {
			t.Errorf("row %+v", e)
		}
	}
	if cut, _ := lib.Journal().CutOff(ctx); len(cut) != 0 {
		t.Errorf("%d requests left after a completed batch", len(cut))
	}
}

// A batch whose window ran out with 7 of 12 done keeps the 7 and lists
// the 5 with the reason, for a resend.
func TestAnExpiredBatchKeepsWhatWasDoneAndListsTheRest(t *testing.T) {
	lane, lib, runner, _ := setup(t, demoservice.Config{BatchExpireAfter: 7})
	ctx := context.Background()
	rec, err := lane.Send(ctx, batchlane.Batch{Requests: twelve(), Label: "lighthouses"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err = lane.Follow(ctx, rec.ID, batchlane.Through(runner, nil), nil)
	if err != nil || rec.Status != api.BatchExpired {
		t.Fatalf("followed to %+v, %v", rec, err)
	}
	if n, _ := lib.Count(ctx, library.Query{}); n != 7 {
		t.Errorf("%d pictures kept, want 7", n)
	}
	left, err := lib.Journal().CutOff(ctx)
	if err != nil || len(left) != 5 {
		t.Fatalf("%d listed for a resend, want 5 (%v)", len(left), err)
	}
	for _, j := range left {
		if _, why := lib.Journal().Batches().LeftBy(ctx, j.Job); !strings.Contains(why, "24 hours ran out") {
			t.Errorf("%s left because %q", j.Generate.Prompt, why)
		}
	}
}

// An edit batch of 5 references × 4 prompts uploads each reference once.
func TestAnEditBatchUploadsEachReferenceOnce(t *testing.T) {
	lane, lib, runner, srv := setup(t, demoservice.Config{})
	ctx := context.Background()
	var refs []api.InputImage
	for i := range 5 {
		refs = append(refs, api.InputImage{Name: fmt.Sprintf("ref-%d.png", i), Data: square(t, uint8(40*i)), ContentType: "image/png"})
	}
	var reqs []jobs.Request
	for _, p := range []string{"warmer", "cooler", "at dusk", "in snow"} {
		reqs = append(reqs, jobs.Request{Profile: "p-demo", Edit: &api.EditRequest{Prompt: p, Images: refs,
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}})
	}
	rec, err := lane.Send(ctx, batchlane.Batch{Requests: reqs, Label: "four moods"})
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Batch.Uploads("batch"); n != 6 {
		t.Errorf("%d files uploaded, want the 5 references once and the request file", n)
	}
	if _, err := lane.Follow(ctx, rec.ID, batchlane.Through(runner, nil), nil); err != nil {
		t.Fatal(err)
	}
	if n, _ := lib.Count(ctx, library.Query{}); n != 4 {
		t.Errorf("%d edits kept, want 4", n)
	}
}

// A long render in the background is kept as a batch of one: followed
// until it is done, its picture lands in the gallery at the live price,
// and nothing is left in the journal.
func TestABackgroundRenderLandsInTheGallery(t *testing.T) {
	lane, lib, runner, _ := setup(t, demoservice.Config{BatchPace: 20 * time.Millisecond})
	ctx := context.Background()
	req := jobs.Request{Profile: "p-demo", Generate: &api.GenerateRequest{Prompt: "a harbour at night", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high"}}}
	rec, err := lane.Render(ctx, req, "a harbour at night", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if pending, _ := lib.Journal().Batches().Pending(ctx); len(pending) != 1 || pending[0].Endpoint != api.RenderEndpoint {
		t.Fatalf("pending %+v", pending)
	}
	rec, err = lane.Follow(ctx, rec.ID, batchlane.Through(runner, nil), nil)
	if err != nil || rec.Status != api.BatchCompleted || rec.Ended.IsZero() {
		t.Fatalf("followed to %+v, %v", rec, err)
	}
	if n, _ := lib.Count(ctx, library.Query{}); n != 1 {
		t.Errorf("%d pictures", n)
	}
	rows, _ := lib.Ledger().Entries(ctx, time.Time{})
	if len(rows) != 1 || strings.Contains(rows[0].Note, "Batch API") {
		t.Errorf("rows %+v", rows)
	}
	if cut, _ := lib.Journal().CutOff(ctx); len(cut) != 0 {
		t.Errorf("%d left in the journal", len(cut))
	}
}

// Two processes following one batch (the window and `easel jobs --wait`)
// land its answers once: the second waits while the first brings it in.
func TestABatchIsLandedOnceWhenTwoFollowIt(t *testing.T) {
	lane, lib, runner, _ := setup(t, demoservice.Config{})
	ctx := context.Background()
	rec, err := lane.Send(ctx, batchlane.Batch{Requests: twelve()[:3], Label: "three"})
	if err != nil {
		t.Fatal(err)
	}
	release, err := lib.Journal().HoldJob("batch-" + rec.ID) // the other process, landing
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan library.BatchRecord)
	go func() {
		r, _ := lane.Follow(ctx, rec.ID, batchlane.Through(runner, nil), nil)
		done <- r
	}()
	time.Sleep(50 * time.Millisecond)
	if n, _ := lib.Count(ctx, library.Query{}); n != 0 {
		t.Fatalf("%d landed while another process held the batch", n)
	}
	release()
	select {
	case r := <-done:
		if r.Ended.IsZero() {
			t.Errorf("followed to %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second follower never ended")
	}
	if n, _ := lib.Count(ctx, library.Query{}); n != 3 {
		t.Errorf("%d pictures, want 3", n)
	}
}
