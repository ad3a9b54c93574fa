package saver

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/testsupport/fixture"
)

// An image that arrived before a kill is in the gallery at the next
// start, with its job's prompt and settings, and the interrupted job
// lists it; its file beside the journal is gone once it is there. A job
// that ended normally leaves no such file.
func TestImagesThatArrivedBeforeAKillReachTheGallery(t *testing.T) {
	dir := t.TempDir()
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ctx := context.Background()
	j := Journal{Lib: lib}
	job := jobs.Info{ID: "job-arrived-1", Started: time.Now(), Request: jobs.Request{Profile: "demo",
		Generate: &api.GenerateRequest{Prompt: "four foxes", ImageOptions: api.ImageOptions{Model: "gpt-image-1", N: 4, Quality: "low"}}}}
	if err := j.Begin(ctx, job); err != nil {
		t.Fatal(err)
	}
	img := api.Image{Data: fixture.SolidPNG(t, 16, 16, color.Black), Format: "png", Width: 16, Height: 16}
	if err := j.KeepArrived(job.ID, 0, img); err != nil {
		t.Fatal(err)
	}
	// The kill: no End. The next start:
	got, err := j.Interrupted(ctx, func(string) pricing.Table { return pricing.Table{} })
	if err != nil || len(got) != 1 {
		t.Fatalf("%d interrupted, %v", len(got), err)
	}
	if len(got[0].Kept) != 1 {
		t.Fatalf("kept %v", got[0].Kept)
	}
	it, err := lib.Get(ctx, got[0].Kept[0])
	if err != nil || it.Prompt != "four foxes" || it.Params.Quality != "low" || it.Width != 16 {
		t.Errorf("the kept image is %+v (%v)", it, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "journal", "*arrived*"))
	if len(left) != 0 {
		t.Errorf("left beside the journal: %v", left)
	}
	// Told once: a second start finds nothing more.
	if again, _ := j.Interrupted(ctx, func(string) pricing.Table { return pricing.Table{} }); len(again) != 0 {
		t.Errorf("listed again: %d", len(again))
	}

	done := jobs.Info{ID: "job-arrived-2", Started: time.Now(), Request: job.Request}
	_ = j.Begin(ctx, done)
	_ = j.KeepArrived(done.ID, 0, img)
	if err := j.End(ctx, done.ID); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "journal"))
	for _, e := range entries {
		if strings.Contains(e.Name(), "arrived") {
			t.Errorf("a finished job left %s", e.Name())
		}
	}
}
