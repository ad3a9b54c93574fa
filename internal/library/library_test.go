package library

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/testsupport/fixture"
)

func pngOf(t testing.TB, w, h int, c color.NRGBA) api.Image {
	return api.Image{Data: fixture.SolidPNG(t, w, h, c), Format: "png", Width: w, Height: h}
}

func open(t testing.TB) *Library {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestAddGetKeepsBytesAndEverySetting(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	img := pngOf(t, 40, 30, color.NRGBA{10, 20, 30, 255})
	comp := 70
	params := Params{ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024", Quality: "high", Background: "opaque",
		OutputFormat: "png", OutputCompression: &comp, Moderation: "low", N: 2, Stream: true, PartialImages: 2}, InputFidelity: "high"}
	parent, _ := l.Add(ctx, NewItem{Image: img, Kind: "generate", Prompt: "parent"})
	id, err := l.Add(ctx, NewItem{Image: img, Kind: "edit", Prompt: "a red lighthouse", Model: "gpt-image-1", Profile: "work",
		Params: params, Usage: &api.Usage{InputTokens: 5, OutputTokens: 7, TotalTokens: 12}, Created: time.UnixMilli(1700000000123),
		Duration: 1500 * time.Millisecond, JobID: "job-1", RequestID: "req_1", Parents: []int64{parent, parent}})
	if err != nil {
		t.Fatal(err)
	}
	it, err := l.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(l.Path(it))
	if !bytes.Equal(data, img.Data) {
		t.Error("stored bytes differ from the server's")
	}
	if it.Prompt != "a red lighthouse" || it.Model != "gpt-image-1" || it.Profile != "work" || it.Kind != "edit" ||
		it.Width != 40 || it.Height != 30 || it.TotalTokens != 12 || it.Created.UnixMilli() != 1700000000123 ||
		it.Duration != 1500*time.Millisecond || it.JobID != "job-1" || it.RequestID != "req_1" {
		t.Errorf("item %+v", it)
	}
	if it.Params.Size != "1536x1024" || *it.Params.OutputCompression != 70 || it.Params.InputFidelity != "high" || !it.Params.Stream {
		t.Errorf("params %+v", it.Params)
	}
	if len(it.Parents) != 2 || it.Parents[0] != parent {
		t.Errorf("parents %v", it.Parents)
	}
}

func TestListSearchFavoritesDelete(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	img := pngOf(t, 8, 8, color.NRGBA{A: 255})
	prompts := []string{"a red lighthouse at dusk", "blue whale", "lighthouse keeper's cat", "C'est la vie \"quoted\" (parens) OR *"}
	var ids []int64
	for i, p := range prompts {
		id, err := l.Add(ctx, NewItem{Image: img, Kind: "generate", Prompt: p, Created: time.Date(2024, 5, 1, 12, 0, i, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	all, _ := l.List(ctx, Query{})
	if len(all) != 4 || all[0].ID != ids[3] || all[3].ID != ids[0] {
		t.Fatalf("not newest first: %v", all)
	}
	page, _ := l.List(ctx, Query{Limit: 2, Offset: 2})
	if len(page) != 2 || page[0].ID != ids[1] {
		t.Errorf("second page %v", page)
	}
	found, _ := l.List(ctx, Query{Search: "lightho"})
	if len(found) != 2 {
		t.Errorf("prefix search found %d, want 2", len(found))
	}
	if n, _ := l.Count(ctx, Query{Search: "lighthouse cat"}); n != 1 {
		t.Errorf("two-word search found %d", n)
	}
	for _, hostile := range []string{`"quoted" (parens) OR *`, `NEAR(`, `'`, `***`} {
		if _, err := l.List(ctx, Query{Search: hostile}); err != nil {
			t.Errorf("search %q: %v", hostile, err)
		}
	}
	if err := l.SetFavorite(ctx, ids[1], true); err != nil {
		t.Fatal(err)
	}
	if favs, _ := l.List(ctx, Query{Favorites: true}); len(favs) != 1 || favs[0].ID != ids[1] || !favs[0].Favorite {
		t.Errorf("favourites %v", favs)
	}
	it, _ := l.Get(ctx, ids[0])
	thumb, _ := l.Thumbnails().Thumbnail(it)
	if err := l.Delete(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Get(ctx, ids[0]); err != ErrNotFound {
		t.Errorf("deleted item still there: %v", err)
	}
	for _, p := range []string{l.Path(it), thumb} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left behind", p)
		}
	}
	if n, _ := l.Count(ctx, Query{Search: "red"}); n != 0 {
		t.Errorf("search still finds the deleted prompt")
	}
}

func TestThumbnailIsSmallAndCached(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	id, _ := l.Add(ctx, NewItem{Image: pngOf(t, 1536, 1024, color.NRGBA{0, 0, 0, 0}), Kind: "generate", Prompt: "x"})
	it, _ := l.Get(ctx, id)
	p, err := l.Thumbnails().Thumbnail(it)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(p)
	cfg, _, err := image.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width != 256 || cfg.Height != 170 {
		t.Errorf("thumbnail %dx%d, %v", cfg.Width, cfg.Height, err)
	}
	st1, _ := os.Stat(p)
	time.Sleep(10 * time.Millisecond)
	p2, _ := l.Thumbnails().Thumbnail(it)
	st2, _ := os.Stat(p2)
	if p2 != p || !st1.ModTime().Equal(st2.ModTime()) {
		t.Error("thumbnail made twice")
	}
}

func TestOpenRepairsWhatACrashLeftAndDeletesNothingItCannotSee(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	img := pngOf(t, 8, 8, color.NRGBA{1, 2, 3, 255})
	keep, _ := l.Add(ctx, NewItem{Image: img, Kind: "generate", Prompt: "keep"})
	lost, _ := l.Add(ctx, NewItem{Image: img, Kind: "generate", Prompt: "file lost"})
	lostItem, _ := l.Get(ctx, lost)
	l.Close()

	os.Remove(filepath.Join(dir, lostItem.File))
	month := filepath.Join(dir, "images", "2026-01")
	os.MkdirAll(month, 0o700)
	half := "20260101-120000-0123456789ab.png.123.tmp" // Easel's own temporary name
	os.WriteFile(filepath.Join(month, half), img.Data[:10], 0o600)
	os.WriteFile(filepath.Join(month, "orphan.png"), img.Data, 0o600)
	// Files Easel did not write or cannot read stay where they are.
	theirs := map[string][]byte{"junk.png": []byte("not an image"), "notes.txt": []byte("client wants blue"),
		"photo.heic": []byte("\x00\x00\x00\x18ftypheic"), "draft.tmp": []byte("someone's")}
	for name, data := range theirs {
		os.WriteFile(filepath.Join(month, name), data, 0o600)
	}

	l, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	items, _ := l.List(ctx, Query{})
	var kinds []string
	for _, it := range items {
		kinds = append(kinds, it.Kind+":"+filepath.Base(it.File))
	}
	if len(items) != 3 {
		t.Fatalf("items after repair: %v", kinds)
	}
	if it, err := l.Get(ctx, keep); err != nil || it.Missing {
		t.Errorf("a good item was lost or is called missing: %v", err)
	}
	gone, err := l.Get(ctx, lost)
	if err != nil || !gone.Missing || gone.Prompt != "file lost" {
		t.Errorf("the row whose file is missing: %+v, %v; want it kept, with its prompt, marked missing", gone, err)
	}
	if !strings.Contains(strings.Join(kinds, " "), "recovered:orphan.png") {
		t.Errorf("the orphan was not adopted: %v", kinds)
	}
	if _, err := os.Stat(filepath.Join(month, half)); !os.IsNotExist(err) {
		t.Errorf("Easel's half-written file was left behind")
	}
	for name, data := range theirs {
		if got, err := os.ReadFile(filepath.Join(month, name)); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s, which Easel did not write, was removed or changed: %v", name, err)
		}
	}
}

// Several jobs finish at once: every image they save is recorded, with
// readers (the gallery) between the writes. A deferred transaction that
// found another writer mid-commit failed at once with SQLITE_BUSY, its
// busy timeout never consulted.
func TestConcurrentAddsAreAllRecorded(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	img := pngOf(t, 8, 8, color.NRGBA{1, 2, 3, 255})
	const writers, each = 8, 15
	errs := make(chan error, writers+1)
	done := make(chan struct{})
	var reader sync.WaitGroup
	reader.Add(1)
	go func() { // a gallery reading while the jobs write
		defer reader.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if _, err := l.Count(ctx, Query{}); err != nil {
				errs <- err
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, err := l.Add(ctx, NewItem{Image: img, Kind: "generate", Prompt: "at once"}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	reader.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n, err := l.Count(ctx, Query{Search: "once"}); err != nil || n != writers*each {
		t.Fatalf("%d images recorded (%v), want %d", n, err, writers*each)
	}
}

// A thumbnail that is there but cannot be looked at (its folder replaced
// by a file, a drive gone) is reported as such, not taken for a missing
// one and made again over it.
func TestAnUnreadableThumbnailIsAnError(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	id, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{1, 2, 3, 255}), Kind: "generate", Prompt: "p"})
	if err != nil {
		t.Fatal(err)
	}
	it, _ := l.Get(ctx, id)
	if err := os.RemoveAll(l.thumbs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.thumbs, []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = l.Thumbnails().Thumbnail(it)
	if err == nil || !strings.Contains(err.Error(), "thumbnail") {
		t.Fatalf("got %v, want the thumbnail's own error", err)
	}
	// Linux says the folder is not one (ENOTDIR); Windows says the path
	// is not found, and the thumbnail is made again and cannot be: either
	// way, nothing is written over what was there.
	if got, _ := os.ReadFile(l.thumbs); string(got) != "not a folder" {
		t.Errorf("what stood at the thumbnails' place now holds %q", got)
	}
}
