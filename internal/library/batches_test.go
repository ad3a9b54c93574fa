package library

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/api"
)

// A v16 library upgrades to one that keeps batches: the command line's
// job a kill cut off is still listed, and a batch's requests are at work
// (not listed) until the batch ends, when those it did not bring are.
func TestAnUpgradedLibraryKeepsItsCutOffJobAndTakesBatches(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v16", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	cut, err := l.Journal().CutOff(ctx)
	if err != nil || len(cut) != 1 || cut[0].Job != "job-v16-cut-off" || cut[0].Generate.Prompt != "a heron cut off by a kill" {
		t.Fatalf("cut off after the upgrade: %+v, %v", cut, err)
	}
	book := l.Journal().Batches()
	var reqs []BatchRequest
	for i, prompt := range []string{"a fox", "an owl", "a yak"} {
		job := "job-batch-" + prompt
		if err := l.Journal().Begin(ctx, Journalled{Job: job, Profile: "p-studio", Started: time.Now(), Owner: OwnerBatch,
			Generate: &api.GenerateRequest{Prompt: prompt, ImageOptions: api.ImageOptions{Model: "gpt-image-1"}}}); err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, BatchRequest{CustomID: string(rune('a' + i)), Job: job})
	}
	if err := book.Add(ctx, BatchRecord{ID: "batch_1", Profile: "p-studio", Model: "gpt-image-1", Endpoint: api.BatchGenerations,
		InputFile: "file-1", Status: api.BatchValidating, Total: 3, Label: "animals", Created: time.Now()}, reqs); err != nil {
		t.Fatal(err)
	}
	if cut, _ := l.Journal().CutOff(ctx); len(cut) != 1 {
		t.Errorf("a batch at work listed as cut off: %d jobs", len(cut))
	}
	if pending, _ := book.Pending(ctx); len(pending) != 1 || pending[0].Label != "animals" {
		t.Errorf("pending %+v", pending)
	}
	// The batch expired with one done: that one is crossed out, the two
	// others are listed once it has ended.
	if err := book.Checked(ctx, "batch_1", api.BatchExpired, 3, 1, 2); err != nil {
		t.Fatal(err)
	}
	if err := book.Settle(ctx, "batch_1", "a", BatchLanded, ""); err != nil {
		t.Fatal(err)
	}
	if err := l.Journal().End(ctx, "job-batch-a fox"); err != nil {
		t.Fatal(err)
	}
	if err := book.Settle(ctx, "batch_1", "b", BatchFailed, "This request could not be executed before the completion window expired."); err != nil {
		t.Fatal(err)
	}
	if err := book.End(ctx, "batch_1"); err != nil {
		t.Fatal(err)
	}
	cut, _ = l.Journal().CutOff(ctx)
	if len(cut) != 3 {
		t.Fatalf("after the batch ended %d jobs are listed, want the cut-off one and the two it did not bring", len(cut))
	}
	if b, why := book.LeftBy(ctx, "job-batch-an owl"); b != "batch_1" || why == "" {
		t.Errorf("left by %q: %q", b, why)
	}
	if pending, _ := book.Pending(ctx); len(pending) != 0 {
		t.Errorf("an ended batch is pending")
	}
}
