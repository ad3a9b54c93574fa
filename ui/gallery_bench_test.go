package ui

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/saver"
	"easel/internal/testsupport/benchfloor"
)

// benchLib holds, per size, the library the benchmarks of this process
// use; benchTemp, those to remove when the tests end.
var benchLib, benchTemp = map[int]string{}, []string{}

// TestMain removes the benchmark libraries made in temporary folders.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range benchTemp {
		_ = os.RemoveAll(dir)
	}
	os.Exit(code)
}

// benchLibrary returns a library of n small images with their thumbnails.
// Writing it takes about a minute for 10,000 images (each is synced to
// disk, as the app does), so make bench keeps it between runs in
// EASEL_BENCH_CACHE (.cache/bench; make clean drops it). Without that
// variable it is made in a temporary folder, removed when the tests end.
func benchLibrary(b *testing.B, n int) string {
	if dir, ok := benchLib[n]; ok {
		return dir
	}
	cache := os.Getenv("EASEL_BENCH_CACHE")
	// The thumbnail size is in the name: a library kept from before a
	// change of it would hold thumbnails of the old size.
	kept := filepath.Join(cache, fmt.Sprintf("library-%d-thumb%d", n, library.ThumbSize))
	if cache != "" && benchLibraryComplete(kept, n) {
		benchLib[n] = kept
		return kept
	}
	dir, err := os.MkdirTemp(cache, "easel-bench-lib")
	if err != nil {
		b.Fatal(err)
	}
	benchTemp = append(benchTemp, dir)
	fillBenchLibrary(b, dir, n)
	if cache != "" {
		// Complete only now: a run killed while writing leaves a folder
		// that is never mistaken for a library to keep.
		if err := os.WriteFile(filepath.Join(dir, benchComplete), nil, 0o600); err != nil {
			b.Fatal(err)
		}
		_ = os.RemoveAll(kept)
		if err := os.Rename(dir, kept); err != nil {
			b.Fatal(err)
		}
		dir = kept
	}
	benchLib[n] = dir
	return dir
}

// benchComplete marks a kept benchmark library as whole.
const benchComplete = "bench-complete"

// benchLibraryComplete reports whether dir is a whole library of n items
// that today's code still opens.
func benchLibraryComplete(dir string, n int) bool {
	if _, err := os.Stat(filepath.Join(dir, benchComplete)); err != nil {
		return false
	}
	lib, err := library.Open(dir)
	if err != nil {
		return false
	}
	defer lib.Close()
	count, err := lib.Count(context.Background(), library.Query{})
	return err == nil && count == n
}

// fillBenchLibrary writes n images and their thumbnails into the library
// in dir, from a few writers at once so their syncs overlap.
func fillBenchLibrary(b *testing.B, dir string, n int) {
	lib, err := library.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	add := func(i int) error {
		img := image.NewNRGBA(image.Rect(0, 0, library.ThumbSize, library.ThumbSize))
		for p := 0; p < len(img.Pix); p += 4 {
			copy(img.Pix[p:], []byte{byte(i), byte(i >> 8), 200, 255})
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		id, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: library.ThumbSize, Height: library.ThumbSize},
			Kind: "generate", Prompt: "bench image", Created: time.UnixMilli(int64(1_700_000_000_000 + i))})
		if err != nil {
			return err
		}
		it, _ := lib.Get(context.Background(), id)
		_, err = lib.Thumbnails().Thumbnail(it)
		return err
	}
	const writers = 8
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		go func() {
			for i := w; i < n; i += writers {
				if err := add(i); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < writers; w++ {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
}

func heapMB() float64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse) / (1 << 20)
}

// openGalleryOn opens the window on the library in dir at 1280x800,
// on another tab.
func openGalleryOn(b *testing.B, dir string) (*App, time.Duration) {
	o := isolated(b, Options{})
	b.Setenv("EASEL_HOME", dir)
	a := test.NewTempApp(b)
	ea := New(a, o)
	ea.win.Resize(fyne.NewSize(1280, 800))
	return ea, 0
}

// openGallery opens the window on the library in dir, shows the Gallery
// at 1280x800 and waits until every visible cell has its thumbnail.
func openGallery(b *testing.B, dir string) (*App, time.Duration) {
	o := isolated(b, Options{})
	b.Setenv("EASEL_HOME", dir) // after isolated, which points it at an empty folder
	a := test.NewTempApp(b)
	ea := New(a, o)
	ea.win.Resize(fyne.NewSize(1280, 800))
	start := time.Now()
	onUI(ea, func() { ea.SelectTab(TabGallery) })
	waitUntil(b, ea, "the gallery's first page", ea.gallery.Answered)
	waitVisibleThumbs(b, ea)
	return ea, time.Since(start)
}

// onUI runs f through the window's bridge and waits for it: Fyne's test
// driver has no UI goroutine, and the bridge keeps f from overlapping the
// thumbnail loads that hop back through it.
func onUI(ea *App, f func()) {
	done := make(chan struct{})
	ea.bridge.Do(func() { f(); close(done) })
	<-done
}

func visibleCells(g interface{ Size() fyne.Size }) int {
	cols := int(g.Size().Width / (library.ThumbSize*0.6 + 4))
	rows := int(g.Size().Height/(library.ThumbSize*0.6+4)) + 1
	return max(1, cols*rows)
}

func waitVisibleThumbs(b *testing.B, ea *App) {
	deadline := time.Now().Add(10 * time.Second)
	for ea.thumbs.Len() < min(len(ea.gallery.Items()), visibleCells(ea.gallery.Grid())) {
		if time.Now().After(deadline) {
			b.Fatalf("only %d thumbnails after 10s", ea.thumbs.Len())
		}
		time.Sleep(time.Millisecond)
	}
}

// fastBenchLibrary returns a library of n items made straight in the
// index: one small PNG hard-linked under n names (a row per name, a
// third of them edits), so a 100,000-item library takes seconds to make,
// not the hour that n syncing saves would. Thumbnails are made as the
// grid asks for them, as they are for a user's library. Kept in
// EASEL_BENCH_CACHE between runs.
func fastBenchLibrary(b *testing.B, n int) string {
	key := -n // apart from benchLibrary's
	if dir, ok := benchLib[key]; ok {
		return dir
	}
	cache := os.Getenv("EASEL_BENCH_CACHE")
	kept := filepath.Join(cache, fmt.Sprintf("library-fast-%d", n))
	if cache != "" && benchLibraryComplete(kept, n) {
		benchLib[key] = kept
		return kept
	}
	dir, err := os.MkdirTemp(cache, "easel-bench-fast")
	if err != nil {
		b.Fatal(err)
	}
	benchTemp = append(benchTemp, dir)
	lib, err := library.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 96, 64))
	for p := 0; p < len(img.Pix); p += 4 {
		copy(img.Pix[p:], []byte{byte(p), 120, 200, 255})
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	if err := os.MkdirAll(filepath.Join(dir, "images", "2026-01"), 0o700); err != nil {
		b.Fatal(err)
	}
	// A file takes at most 65,000 links (ext4): a source per 50,000.
	var sources []string
	for k := 0; k*50_000 < n; k++ {
		src := filepath.Join(dir, "images", fmt.Sprintf("source-%d.png", k))
		if err := os.WriteFile(src, buf.Bytes(), 0o600); err != nil {
			b.Fatal(err)
		}
		sources = append(sources, src)
	}
	tx, err := lib.DB().Begin()
	if err != nil {
		b.Fatal(err)
	}
	stmt, err := tx.Prepare(`INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, model, created_ms) VALUES (?, 'png', 96, 64, ?, ?, ?, 'gpt-image-1', ?)`)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		// Named as Easel names its images, so recovery takes them for its own.
		rel := fmt.Sprintf("images/2026-01/20260101-000000-%012x.png", i)
		if err := os.Link(sources[i/50_000], filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			b.Fatal(err)
		}
		kind := "generate"
		if i%3 == 0 {
			kind = "edit"
		}
		if _, err := stmt.Exec(rel, buf.Len(), kind, fmt.Sprintf("bench image %d", i), int64(1_767_225_600_000+i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for _, src := range sources {
		os.Remove(src)
	}
	lib.Close()
	if cache != "" {
		if err := os.WriteFile(filepath.Join(dir, benchComplete), nil, 0o600); err != nil {
			b.Fatal(err)
		}
		_ = os.RemoveAll(kept)
		if err := os.Rename(dir, kept); err != nil {
			b.Fatal(err)
		}
		dir = kept
	}
	benchLib[key] = dir
	return dir
}

// waitGridThumbs waits until the cells on screen have their items and
// thumbnails, and returns how long that took from start.
func waitGridThumbs(b *testing.B, ea *App, start time.Time) time.Duration {
	g := ea.gallery
	deadline := time.Now().Add(20 * time.Second)
	for {
		done := true
		onUI(ea, func() {
			first, last := g.VisibleRange()
			for i := first; i <= last && i < g.Total(); i++ {
				it, ok := g.ItemAt(i)
				if !ok {
					done = false
					return
				}
				if _, ok := ea.thumbs.Cached(it.ID); !ok {
					done = false
					return
				}
			}
		})
		if done {
			return time.Since(start)
		}
		if time.Now().After(deadline) {
			b.Fatalf("the grid's cells did not fill in 20 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkGallery100k opens the gallery on 100,000 images and reports,
// beside the floor of the same steps on an empty gallery: the first
// screen of thumbnails (goal: at most 200 ms), a jump to the end (goal:
// at most 200 ms), a filter change (goal: at most 100 ms), the heap's
// growth over an empty gallery (goal: at most 64 MB) and after scrolling
// the whole grid (bounded by the page and thumbnail caches).
func BenchmarkGallery100k(b *testing.B) {
	full := fastBenchLibrary(b, 100_000)
	empty := b.TempDir()
	b.ResetTimer()
	var firstScreen, emptyScreen, jump, filter []float64
	var emptyHeap, fullHeap, scrolledHeap float64
	for i := 0; i < b.N; i++ {
		e, d := openGallery(b, empty)
		emptyScreen = append(emptyScreen, float64(d.Microseconds())/1000)
		emptyHeap = heapMB()
		onUI(e, e.win.Close)
		e.lib.Close()

		ea, _ := openGalleryOn(b, full)
		start := time.Now()
		onUI(ea, func() { ea.SelectTab(TabGallery) })
		waitUntil(b, ea, "the gallery's first page", ea.gallery.Answered)
		firstScreen = append(firstScreen, float64(waitGridThumbs(b, ea, start).Microseconds())/1000)
		fullHeap = heapMB()
		g := ea.gallery
		if g.Total() != 100_000 {
			b.Fatalf("the gallery holds %d items", g.Total())
		}
		start = time.Now()
		onUI(ea, func() { g.Grid().ScrollToBottom() })
		jump = append(jump, float64(waitGridThumbs(b, ea, start).Microseconds())/1000)
		onUI(ea, func() { g.Grid().ScrollToTop() })
		waitGridThumbs(b, ea, time.Now())
		start = time.Now()
		onUI(ea, func() { g.SetKindFilter("Edited") })
		waitUntil(b, ea, "the filtered page", g.Answered)
		filter = append(filter, float64(waitGridThumbs(b, ea, start).Microseconds())/1000)
		onUI(ea, func() { g.SetKindFilter("All kinds") })
		waitUntil(b, ea, "all kinds again", g.Answered)
		for id := 0; id < g.Total(); id += 1000 {
			onUI(ea, func() { g.Grid().ScrollTo(id) })
		}
		time.Sleep(time.Second) // let the loads still under way finish
		scrolledHeap = heapMB()
		onUI(ea, ea.win.Close)
		ea.lib.Close()
	}
	b.ReportMetric(benchfloor.Median(firstScreen), "first-screen-ms")
	b.ReportMetric(benchfloor.Median(emptyScreen), "floor-empty-first-screen-ms")
	b.ReportMetric(benchfloor.Median(jump), "jump-to-end-ms")
	b.ReportMetric(benchfloor.Median(filter), "filter-change-ms")
	b.ReportMetric(fullHeap-emptyHeap, "heap-growth-MB")
	b.ReportMetric(scrolledHeap-emptyHeap, "heap-after-scroll-MB")
}

// BenchmarkThumbnail1536 reports making a thumbnail of a 1536x1024 PNG as
// a ratio to a plain decode plus resize of the same file in the same run
// (goal: at most 1.5).
func BenchmarkThumbnail1536(b *testing.B) {
	img := image.NewNRGBA(image.Rect(0, 0, 1536, 1024))
	for y := 0; y < 1024; y++ {
		for x := 0; x < 1536; x++ {
			img.SetNRGBA(x, y, color.NRGBA{byte(x), byte(y), byte(x ^ y), 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	data := buf.Bytes()
	// The floor and the thumbnail are timed alternately, so a slower
	// moment of the machine weighs on both alike.
	var floor, thumb []float64
	for i := 0; i < b.N; i++ {
		floor = append(floor, benchfloor.MedianNs(1, func() {
			src, _, _ := image.Decode(bytes.NewReader(data))
			_ = resizeFloor(src)
		}))
		thumb = append(thumb, benchfloor.MedianNs(1, func() {
			if _, err := library.MakeThumbnail(data); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(benchfloor.Median(floor)/1e6, "decode+resize-ms")
	b.ReportMetric(benchfloor.Median(thumb)/benchfloor.Median(floor), "ratio-to-decode+resize")
}

// BenchmarkFourStreamingJobs runs four streamed jobs with previews on the
// fake service and reports the longest time a UI callback spent on the
// UI goroutine (goal: at most 16 ms).
func BenchmarkFourStreamingJobs(b *testing.B) {
	var mu sync.Mutex
	var longest time.Duration
	for i := 0; i < b.N; i++ {
		b.Setenv("EASEL_HOME", b.TempDir())
		ts := httptest.NewServer(demoservice.New(demoservice.Config{Pace: 20 * time.Millisecond}))
		ea := New(test.NewTempApp(b), isolated(b, Options{BaseURL: ts.URL + "/v1"}))
		ea.bridge.do = func(f func()) {
			fyne.Do(func() {
				start := time.Now()
				f()
				mu.Lock()
				longest = max(longest, time.Since(start))
				mu.Unlock()
			})
		}
		ea.runner = jobs.New(ea.session.Client(), saver.Library{Lib: ea.lib}, ea.feed.onJobEvent, jobs.Options{Limit: 4})
		ea.SelectTab(TabGenerate)
		for j := 0; j < 4; j++ {
			req := api.GenerateRequest{Prompt: "stream " + string(rune('a'+j)), ImageOptions: api.ImageOptions{
				Model: "gpt-image-1", Size: "1536x1024", Stream: true, PartialImages: 3}}
			if _, err := ea.runner.Submit(asGenerate(ea, jobs.Request{Profile: "p", Generate: &req})); err != nil {
				b.Fatal(err)
			}
		}
		ea.runner.Wait()
		ea.win.Close()
		ea.lib.Close()
		ts.Close()
	}
	b.ReportMetric(float64(longest.Microseconds())/1000, "longest-ui-callback-ms")
}
