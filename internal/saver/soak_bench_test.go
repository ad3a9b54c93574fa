package saver

import (
	"context"
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/testsupport/fixture"
)

// BenchmarkSoak1000Jobs runs 1,000 jobs through the real runner, saver
// and library in one process, against the fake service: generations and
// edits, some streamed, some failing, some cancelled, as months of use
// would. It reports resident memory after the first 100 jobs and after
// the last (goal: rss-ratio at most 1.10), and fails if goroutines or
// open files (beyond the index's pooled connections) are left behind, or
// if a finished image is missing from the gallery or the disk.
func BenchmarkSoak1000Jobs(b *testing.B) {
	for range b.N {
		soak(b)
	}
}

func soak(b *testing.B) {
	srv := httptest.NewServer(demoservice.New(demoservice.Config{}))
	defer srv.Close()
	lib, err := library.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	transport := &http.Transport{MaxIdleConnsPerHost: 4}
	client := api.New(api.Config{BaseURL: srv.URL + "/v1", HTTPClient: &http.Client{Transport: transport}})

	settle := func() {
		transport.CloseIdleConnections()
		runtime.GC()
		debug.FreeOSMemory()
		time.Sleep(50 * time.Millisecond) // connections' goroutines end
	}
	settle()
	goroutines0, files0 := runtime.NumGoroutine(), openFiles(lib.Root())

	var mu sync.Mutex
	// Sized for every job from the start, so the test's own bookkeeping
	// does not grow between the two measurements.
	saved, done, failed, cancelled := make(map[int64]bool, 1000), 0, 0, 0
	runner := jobs.New(client, Library{Lib: lib}, func(e jobs.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e.State {
		case jobs.Done:
			done++
			for _, id := range e.ItemIDs {
				saved[id] = true
			}
		case jobs.Failed:
			failed++
		case jobs.Cancelled:
			cancelled++
		}
	}, jobs.Options{Limit: 4, Tick: 10 * time.Millisecond})

	input := api.InputImage{Name: "ref.png", ContentType: "image/png", Data: fixture.SolidPNG(b, 64, 64, color.Black)}
	var rss100 int64
	var heap100 uint64
	var mem100 memParts
	for i := range 1000 {
		opts := api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", OutputFormat: "jpeg"}
		switch {
		case i%10 == 3:
			opts.Model = "fault-" + demoservice.FaultInvalidSize // fails, as a refused request does
		case i%3 == 0:
			opts.Stream, opts.PartialImages = true, 1
		}
		req := jobs.Request{Profile: "soak"}
		if i%4 == 1 {
			req.Edit = &api.EditRequest{Prompt: fmt.Sprint("soak edit ", i), ImageOptions: opts, Images: []api.InputImage{input}}
		} else {
			req.Generate = &api.GenerateRequest{Prompt: fmt.Sprint("soak image ", i), ImageOptions: opts}
		}
		id, err := runner.Submit(req)
		if err != nil {
			b.Fatal(err)
		}
		if i%10 == 7 {
			runner.Cancel(id)
		}
		if i%20 == 19 { // a user sends in bursts
			runner.Wait()
		}
		if i == 99 {
			runner.Wait()
			settle()
			rss100, heap100, mem100 = residentBytes(), heapInUse(), readMemParts()
		}
	}
	runner.Wait()
	settle()
	rss, heap, mem := residentBytes(), heapInUse(), readMemParts()
	goroutines, files := runtime.NumGoroutine(), openFiles(lib.Root())
	db := openFiles("") - files // the index's pooled SQLite connections

	n, _ := lib.Count(context.Background(), library.Query{})
	if n != len(saved) {
		b.Errorf("%d images in the gallery, %d reported saved", n, len(saved))
	}
	items, _ := lib.List(context.Background(), library.Query{Limit: 1 << 20})
	for _, it := range items {
		if _, err := os.Stat(lib.Path(it)); err != nil {
			b.Errorf("image %d has no file: %v", it.ID, err)
		}
	}
	if done+failed+cancelled != 1000 {
		b.Errorf("%d jobs ended (%d done, %d failed, %d cancelled), want 1000", done+failed+cancelled, done, failed, cancelled)
	}
	b.Logf("%d done, %d failed, %d cancelled; %d images kept; heap %d → %d KB", done, failed, cancelled, n, heap100>>10, heap>>10)
	b.ReportMetric(float64(rss100)/(1<<20), "rss-after-100-MB")
	b.ReportMetric(float64(rss)/(1<<20), "rss-after-1000-MB")
	b.ReportMetric(float64(rss)/float64(rss100), "rss-ratio")
	b.ReportMetric(float64(heap)/float64(heap100), "heap-ratio")
	// Where the resident set grew between job 100 and job 1,000: what the
	// Go runtime holds (heap, stacks, GC metadata), the rest of the
	// anonymous memory (modernc's SQLite allocates outside Go's heap: its
	// page caches and statement memory), mapped files, and shared memory
	// (the index's WAL index).
	mb := func(a, b int64) float64 { return float64(b-a) / (1 << 20) }
	b.ReportMetric(mb(mem100.goHeld, mem.goHeld), "growth-go-MB")
	b.ReportMetric(mb(mem100.anon-mem100.goHeld, mem.anon-mem.goHeld), "growth-outside-go-MB")
	b.ReportMetric(mb(mem100.file, mem.file), "growth-file-MB")
	b.ReportMetric(mb(mem100.shmem, mem.shmem), "growth-shmem-MB")
	b.ReportMetric(float64(goroutines-goroutines0), "goroutines-left")
	b.ReportMetric(float64(files-files0), "files-left-open")
	b.ReportMetric(float64(db), "index-files-open")
	// The goal (at most 1.10) is read off rss-ratio: a few MB of noise on
	// a 20 MB process, part of it SQLite's page cache filling up to its
	// bound as the index grows, would make a hard check flaky.
	if goroutines > goroutines0 || files > files0 {
		b.Errorf("left behind: %d goroutines, %d open files", goroutines-goroutines0, files-files0)
	}
	if db > 3*maxPooled {
		b.Errorf("%d of the index's files open, more than %d pooled connections hold", db, maxPooled)
	}
}

// residentBytes is this process's resident set, from /proc.
func residentBytes() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// memParts splits the resident set: anonymous, file-backed and shared
// (from /proc), and what the Go runtime holds of the anonymous part.
type memParts struct{ anon, file, shmem, goHeld int64 }

func readMemParts() memParts {
	var p memParts
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "RssAnon:":
			p.anon = kb << 10
		case "RssFile:":
			p.file = kb << 10
		case "RssShmem:":
			p.shmem = kb << 10
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	p.goHeld = int64(m.HeapInuse + m.StackInuse + m.MSpanInuse + m.MCacheInuse + m.GCSys + m.OtherSys + m.BuckHashSys)
	return p
}

// heapInUse is the Go heap's bytes in use.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// maxPooled is how many connections database/sql keeps idle by default;
// each holds the index and its log open (the shared memory is one more).
const maxPooled = 2 + 1

// openFiles counts this process's open file descriptors, leaving out the
// SQLite index of the library in libDir (its pooled connections keep
// it open by design) unless libDir is empty.
func openFiles(libDir string) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		target, _ := os.Readlink("/proc/self/fd/" + e.Name())
		if libDir != "" && strings.HasPrefix(target, libDir+"/library.db") {
			continue
		}
		n++
	}
	return n
}
