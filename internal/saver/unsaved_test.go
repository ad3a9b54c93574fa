package saver

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"easel/internal/api"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
	"easel/internal/testsupport/fixture"
)

// answering is a service that answers every generation with two images.
type answering struct{ data []byte }

func (s answering) Generate(context.Context, api.GenerateRequest, func(api.Partial)) (*api.ImageResult, error) {
	img := api.Image{Data: s.data, Format: "png", Width: 16, Height: 16}
	return &api.ImageResult{Images: []api.Image{img, img}, Usage: &api.Usage{InputTokens: 10, OutputTokens: 272}}, nil
}

func (s answering) Edit(context.Context, api.EditRequest, func(api.Partial)) (*api.ImageResult, error) {
	return nil, fmt.Errorf("no edits here")
}

// fullDisk is the gallery as a disk that filled after the check before
// sending: every save fails with ENOSPC; the fallback folders still take
// the bytes.
type fullDisk struct{ Library }

func (f fullDisk) Save(_ context.Context, _ jobs.Info, res *api.ImageResult, _ honesty.Report, _ *imageio.EditPictures) []jobs.Saved {
	var out []jobs.Saved
	for _, img := range res.Images {
		out = append(out, jobs.Saved{Image: img, Err: fmt.Errorf("library: cannot save the image: %w", syscall.ENOSPC)})
	}
	return out
}

// A disk that fills as a paid job's images are saved loses nothing and
// never offers a free Retry: the ledger holds the request as billed, the
// bytes go to a fallback folder the card names, and the next start puts
// them in the gallery with their prompt, lists the job as answered and
// paid, and removes the fallback files. (The job used to end with no
// ledger row and an open journal entry, listed next time as Interrupted
// with Retry.)
func TestADiskThatFillsWhileSavingLosesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "cache"))
	t.Setenv("TMPDIR", t.TempDir())
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ctx := context.Background()
	var mu sync.Mutex
	var last jobs.Event
	r := jobs.New(answering{data: fixture.SolidPNG(t, 16, 16, color.Black)}, fullDisk{Library{Lib: lib}}, func(e jobs.Event) {
		mu.Lock()
		last = e
		mu.Unlock()
	}, jobs.Options{Journal: Journal{Lib: lib}, Ledger: spend.Ledger{Books: lib.Ledger()}})
	id, err := r.Submit(jobs.Request{Profile: "demo", Prices: pricing.Table{},
		Generate: &api.GenerateRequest{Prompt: "two paid foxes", ImageOptions: api.ImageOptions{Model: "gpt-image-1", N: 2, Quality: "low", Size: "1024x1024"}}})
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	mu.Lock()
	done := last
	mu.Unlock()
	if done.State != jobs.Done || len(done.Unsaved) != 2 {
		t.Fatalf("the job ended %v with %d unsaved", done.State, len(done.Unsaved))
	}
	for _, u := range done.Unsaved {
		if u.Path == "" {
			t.Fatalf("an unsaved image was kept nowhere: %v", u.Err)
		}
		if data, err := os.ReadFile(u.Path); err != nil || len(data) == 0 {
			t.Fatalf("the fallback file %s: %v", u.Path, err)
		}
	}
	if e, ok, _ := lib.Ledger().EntryOfJob(ctx, id); !ok || e.Outcome != library.Billed || e.Billing != "" {
		t.Fatalf("the ledger holds %+v (%v), want the request billed", e, ok)
	}

	// The next start.
	got, err := Journal{Lib: lib}.Interrupted(ctx, func(string) pricing.Table { return pricing.Table{} })
	if err != nil || len(got) != 1 || got[0].ID != id {
		t.Fatalf("%d found at the next start (%v)", len(got), err)
	}
	if !got[0].Answered || len(got[0].Kept) != 2 || len(got[0].KeptAt) != 0 {
		t.Fatalf("answered %v, kept %v, left %v", got[0].Answered, got[0].Kept, got[0].KeptAt)
	}
	it, err := lib.Get(ctx, got[0].Kept[0])
	if err != nil || it.Prompt != "two paid foxes" || it.Params.Quality != "low" {
		t.Errorf("the adopted image is %+v (%v)", it, err)
	}
	for _, u := range done.Unsaved {
		if _, err := os.Stat(u.Path); !os.IsNotExist(err) {
			t.Errorf("the fallback file %s is still there once in the gallery", u.Path)
		}
	}
	entries, _ := lib.Ledger().Entries(ctx, done.Job.Started.Add(-1))
	if len(entries) != 1 {
		t.Errorf("%d ledger rows for one request, want 1 (no may-have-been-billed row beside the billed one)", len(entries))
	}
}
