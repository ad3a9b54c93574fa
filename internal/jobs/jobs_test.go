package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/color"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/gateway"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/testsupport/fixture"
)

// fakeService blocks each call until released, counting how many run.
type fakeService struct {
	release  chan struct{}
	partials int
	err      error
	running  atomic.Int32
	peak     atomic.Int32
}

func (f *fakeService) Generate(ctx context.Context, req api.GenerateRequest, onPartial func(api.Partial)) (*api.ImageResult, error) {
	n := f.running.Add(1)
	defer f.running.Add(-1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			break
		}
	}
	for i := 0; i < f.partials; i++ {
		onPartial(api.Partial{Index: i, Data: []byte{byte(i)}})
	}
	select {
	case <-f.release:
	case <-ctx.Done():
		return nil, &api.Error{Kind: api.KindCancelled}
	}
	if f.err != nil {
		return nil, f.err
	}
	return &api.ImageResult{Images: []api.Image{{Data: []byte("img"), Format: "png"}}}, nil
}

func (f *fakeService) Edit(ctx context.Context, req api.EditRequest, onPartial func(api.Partial)) (*api.ImageResult, error) {
	return f.Generate(ctx, api.GenerateRequest{}, onPartial)
}

type fakeSaver struct {
	mu    sync.Mutex
	saved []string
	err   error
	block chan struct{}
}

func (s *fakeSaver) Save(ctx context.Context, job Info, res *api.ImageResult, _ honesty.Report, _ *imageio.EditPictures) []Saved {
	if s.block != nil {
		<-s.block
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return []Saved{{Err: s.err, Image: api.Image{Data: []byte("kept")}}}
	}
	s.saved = append(s.saved, job.ID)
	return []Saved{{Item: int64(len(s.saved))}}
}

// log records events per job.
type log struct {
	mu     sync.Mutex
	events map[string][]Event
	saver  *fakeSaver
	// savedAtDone records whether the saver had the job when done came.
	savedAtDone map[string]bool
}

func newLog(s *fakeSaver) *log {
	return &log{events: map[string][]Event{}, saver: s, savedAtDone: map[string]bool{}}
}

func (l *log) listen(e Event) {
	if e.State == Done {
		l.saver.mu.Lock()
		for _, id := range l.saver.saved {
			if id == e.Job.ID {
				l.mu.Lock()
				l.savedAtDone[e.Job.ID] = true
				l.mu.Unlock()
			}
		}
		l.saver.mu.Unlock()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events[e.Job.ID] = append(l.events[e.Job.ID], e)
}

func (l *log) states(id string) []State {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []State
	for _, e := range l.events[id] {
		if e.State != Waiting {
			out = append(out, e.State)
		}
	}
	return out
}

func genReq(profile string) Request {
	return Request{Profile: profile, Generate: &api.GenerateRequest{Prompt: "p"}}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func equal(a, b []State) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEventsInOrderAndSavedBeforeDone(t *testing.T) {
	svc := &fakeService{release: make(chan struct{}), partials: 2}
	saver := &fakeSaver{}
	l := newLog(saver)
	r := New(svc, saver, l.listen, Options{Tick: 5 * time.Millisecond})
	id, err := r.Submit(genReq("p"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond) // a few ticks while waiting
	close(svc.release)
	r.Wait()
	want := []State{Queued, Sending, Partial, Partial, Saving, Done}
	if got := l.states(id); !equal(got, want) {
		t.Errorf("states %v, want %v", got, want)
	}
	if !l.savedAtDone[id] {
		t.Error("done was sent before the saver had stored the images")
	}
	waiting := 0
	for _, e := range l.events[id] {
		if e.State == Waiting {
			waiting++
		}
	}
	if waiting == 0 {
		t.Error("no elapsed-time events while waiting")
	}
	last := l.events[id][len(l.events[id])-1]
	if len(last.ItemIDs) != 1 || last.Elapsed <= 0 {
		t.Errorf("done event %+v", last)
	}
	if r.Running() != 0 {
		t.Errorf("%d still running", r.Running())
	}
}

func TestLimitPerProfile(t *testing.T) {
	svc := &fakeService{release: make(chan struct{})}
	saver := &fakeSaver{}
	l := newLog(saver)
	r := New(svc, saver, l.listen, Options{Limit: 2})
	var ids []string
	for i := 0; i < 5; i++ {
		id, _ := r.Submit(genReq("a"))
		ids = append(ids, id)
	}
	other, _ := r.Submit(genReq("b"))
	eventually(t, "three running", func() bool { return svc.running.Load() == 3 })
	time.Sleep(20 * time.Millisecond)
	if n := svc.running.Load(); n != 3 {
		t.Errorf("%d running, want 2 for profile a and 1 for b", n)
	}
	queued := 0
	for _, id := range ids {
		if s := l.states(id); len(s) == 1 && s[0] == Queued {
			queued++
		}
	}
	if queued != 3 {
		t.Errorf("%d of profile a still queued, want 3", queued)
	}
	close(svc.release)
	r.Wait()
	if svc.peak.Load() > 3 {
		t.Errorf("peak %d", svc.peak.Load())
	}
	if s := l.states(other); s[len(s)-1] != Done {
		t.Errorf("profile b ended %v", s)
	}
}

func TestCancelInEveryState(t *testing.T) {
	t.Run("queued", func(t *testing.T) {
		svc := &fakeService{release: make(chan struct{})}
		saver := &fakeSaver{}
		l := newLog(saver)
		r := New(svc, saver, l.listen, Options{Limit: 1})
		first, _ := r.Submit(genReq("p"))
		eventually(t, "first running", func() bool { return svc.running.Load() == 1 })
		second, _ := r.Submit(genReq("p"))
		if !r.Cancel(second) {
			t.Fatal("cancel refused")
		}
		eventually(t, "second cancelled", func() bool { s := l.states(second); return len(s) > 0 && s[len(s)-1] == Cancelled })
		if got := l.states(second); !equal(got, []State{Queued, Cancelled}) {
			t.Errorf("queued job states %v", got)
		}
		close(svc.release)
		r.Wait()
		if s := l.states(first); s[len(s)-1] != Done {
			t.Errorf("first ended %v", s)
		}
	})
	t.Run("waiting", func(t *testing.T) {
		svc := &fakeService{release: make(chan struct{}), partials: 1}
		saver := &fakeSaver{}
		l := newLog(saver)
		r := New(svc, saver, l.listen, Options{})
		id, _ := r.Submit(genReq("p"))
		eventually(t, "running", func() bool { return svc.running.Load() == 1 })
		r.Cancel(id)
		r.Wait()
		if got := l.states(id); !equal(got, []State{Queued, Sending, Partial, Cancelled}) {
			t.Errorf("states %v", got)
		}
		if len(saver.saved) != 0 {
			t.Error("a cancelled job saved images")
		}
	})
	t.Run("saving", func(t *testing.T) {
		svc := &fakeService{release: make(chan struct{})}
		close(svc.release)
		saver := &fakeSaver{block: make(chan struct{})}
		l := newLog(saver)
		r := New(svc, saver, l.listen, Options{})
		id, _ := r.Submit(genReq("p"))
		eventually(t, "saving", func() bool { s := l.states(id); return len(s) > 0 && s[len(s)-1] == Saving })
		r.Cancel(id)
		close(saver.block)
		r.Wait()
		if s := l.states(id); s[len(s)-1] != Done || len(saver.saved) != 1 {
			t.Errorf("a paid result was lost on cancel while saving: %v", s)
		}
	})
	t.Run("finished", func(t *testing.T) {
		svc := &fakeService{release: make(chan struct{})}
		close(svc.release)
		saver := &fakeSaver{}
		r := New(svc, saver, nil, Options{})
		id, _ := r.Submit(genReq("p"))
		r.Wait()
		if r.Cancel(id) {
			t.Error("cancel of a finished job reported true")
		}
	})
}

func TestFailuresCarryTheAPIError(t *testing.T) {
	svc := &fakeService{release: make(chan struct{}), err: &api.Error{Kind: api.KindInsufficientBalance, Hint: "top up"}}
	close(svc.release)
	saver := &fakeSaver{}
	l := newLog(saver)
	r := New(svc, saver, l.listen, Options{})
	id, _ := r.Submit(genReq("p"))
	r.Wait()
	evs := l.events[id]
	last := evs[len(evs)-1]
	if last.State != Failed || last.Err == nil || last.Err.Kind != api.KindInsufficientBalance {
		t.Errorf("last event %+v", last)
	}

	svc2 := &fakeService{release: make(chan struct{})}
	close(svc2.release)
	saver2 := &fakeSaver{err: errors.New("disk full")}
	l2 := newLog(saver2)
	r2 := New(svc2, saver2, l2.listen, Options{})
	id2, _ := r2.Submit(genReq("p"))
	r2.Wait()
	evs = l2.events[id2]
	// The service delivered: the job is done, and the image it could not
	// save is handed on with the cause, to be saved elsewhere.
	if last := evs[len(evs)-1]; last.State != Done || len(last.Unsaved) != 1 || last.Unsaved[0].Err == nil ||
		string(last.Unsaved[0].Image.Data) != "kept" || len(last.ItemIDs) != 0 {
		t.Errorf("save failure ended %+v", last)
	}
}

func TestSubmitNeedsOneRequest(t *testing.T) {
	r := New(&fakeService{}, &fakeSaver{}, nil, Options{})
	if _, err := r.Submit(Request{}); err == nil {
		t.Error("empty request accepted")
	}
}

func TestSetLimitAndPerRequestService(t *testing.T) {
	saver := &fakeSaver{}
	l := newLog(saver)
	r := New(nil, saver, l.listen, Options{Limit: 3})
	if _, err := r.Submit(genReq("a")); err == nil {
		t.Fatal("a runner with no service accepted a job with none")
	}
	svc := &fakeService{release: make(chan struct{})}
	r.SetLimit("a", 1)
	for range 3 {
		req := genReq("a")
		req.Service = svc
		if _, err := r.Submit(req); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "one running", func() bool { return svc.running.Load() == 1 })
	time.Sleep(20 * time.Millisecond)
	if n := svc.running.Load(); n != 1 {
		t.Errorf("%d running with a limit of 1", n)
	}
	close(svc.release)
	r.Wait()
	if svc.peak.Load() != 1 {
		t.Errorf("peak %d, want 1", svc.peak.Load())
	}
}

// TestAFinishedJobNoLongerRunsWhenItsLastEventArrives: the window shows
// "Done" from the last event, and a quit right after asks Running whether
// jobs would be lost. The job must not still count then, in any of the
// four ways a job ends.
func TestAFinishedJobNoLongerRunsWhenItsLastEventArrives(t *testing.T) {
	for _, c := range []struct {
		name   string
		svcErr error
		saver  *fakeSaver
		cancel bool
		want   State
	}{
		{"done", nil, &fakeSaver{}, false, Done},
		{"service failed", &api.Error{Kind: api.KindInsufficientBalance}, &fakeSaver{}, false, Failed},
		{"save failed", nil, &fakeSaver{err: errors.New("disk full")}, false, Done},
		{"cancelled", nil, &fakeSaver{}, true, Cancelled},
	} {
		svc := &fakeService{release: make(chan struct{}), err: c.svcErr}
		var r *Runner
		var mu sync.Mutex
		runningAtEnd := map[State]int{}
		r = New(svc, c.saver, func(e Event) {
			if e.State.Final() {
				mu.Lock()
				runningAtEnd[e.State] = r.Running()
				mu.Unlock()
			}
		}, Options{})
		id, err := r.Submit(genReq("p"))
		if err != nil {
			t.Fatal(err)
		}
		if c.cancel {
			eventually(t, "the request is out", func() bool { return svc.running.Load() == 1 })
			r.Cancel(id)
		} else {
			close(svc.release)
		}
		r.Wait()
		mu.Lock()
		got, ok := runningAtEnd[c.want]
		mu.Unlock()
		if !ok {
			t.Errorf("%s: no %v event (%v)", c.name, c.want, runningAtEnd)
		} else if got != 0 {
			t.Errorf("%s: Running() = %d when the %v event arrived, want 0", c.name, got, c.want)
		}
	}
}

// A quit asks about images, not jobs: the runner counts what the
// unfinished jobs asked for, and forgets a job once it ends.
func TestRunningImagesCountsWhatTheJobsAskedFor(t *testing.T) {
	r := New(&fakeService{release: make(chan struct{})}, &fakeSaver{}, nil, Options{Limit: 4})
	four := api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: "m", N: 4}}
	one := api.GenerateRequest{Prompt: "y", ImageOptions: api.ImageOptions{Model: "m"}}
	a, _ := r.Submit(Request{Generate: &four})
	b, _ := r.Submit(Request{Generate: &one})
	if got := r.RunningImages(); got != 5 {
		t.Errorf("%d images running, want 5", got)
	}
	r.Cancel(a)
	r.Cancel(b)
	r.Wait()
	if got := r.RunningImages(); got != 0 {
		t.Errorf("%d images after every job ended", got)
	}
}

// A wait the service asks for, which Easel makes itself before sending
// again, shows on the job's ticks as a countdown, not as silence.
func TestAWaitTheServiceAskedForIsCountedDown(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(ts.Close)
	client := api.New(api.Config{BaseURL: ts.URL + "/v1"})
	var mu sync.Mutex
	var longest time.Duration
	final := Queued
	r := New(client, &fakeSaver{}, func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		longest = max(longest, e.RetryIn)
		if e.State.Final() {
			final = e.State
		}
	}, Options{Tick: 50 * time.Millisecond})
	req := Request{Profile: "p", Generate: &api.GenerateRequest{Prompt: "p", ImageOptions: api.ImageOptions{
		Model: "fault-" + demoservice.FaultRateLimitOnce, Size: "1024x1024"}}}
	if _, err := r.Submit(req); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	mu.Lock()
	defer mu.Unlock()
	if final != Done || longest < 500*time.Millisecond || longest > time.Second {
		t.Errorf("ended %v; longest countdown %v, want under the 1 s asked for and well above 0", final, longest)
	}
}

// journal records what the runner writes down and crosses out.
type journal struct {
	mu    sync.Mutex
	open  map[string]bool
	ended []string
}

func (j *journal) Begin(_ context.Context, job Info) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.open[job.ID] = true
	return nil
}

func (j *journal) End(_ context.Context, id string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.open, id)
	j.ended = append(j.ended, id)
	return nil
}

func (j *journal) isOpen(id string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.open[id]
}

// A job is written down before the service has it, and crossed out
// however it ends: done, failed or cancelled.
func TestJobsAreJournalledWhileOut(t *testing.T) {
	svc := &fakeService{release: make(chan struct{})}
	j := &journal{open: map[string]bool{}}
	r := New(svc, &fakeSaver{}, nil, Options{Journal: j, Tick: time.Hour})
	id, _ := r.Submit(genReq("p"))
	deadline := time.Now().Add(5 * time.Second)
	for svc.running.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !j.isOpen(id) {
		t.Fatal("the job is at the service but not written down")
	}
	close(svc.release)
	r.Wait()
	if j.isOpen(id) {
		t.Error("a finished job is still in the journal")
	}
	failing := &fakeService{release: make(chan struct{}), err: &api.Error{Kind: api.KindServer}}
	close(failing.release)
	r = New(failing, &fakeSaver{}, nil, Options{Journal: j, Tick: time.Hour})
	id, _ = r.Submit(genReq("p"))
	r.Wait()
	if j.isOpen(id) || len(j.ended) != 2 {
		t.Errorf("a failed job: open %v, ended %v", j.isOpen(id), j.ended)
	}
}

// fullDisk is a saver whose gallery cannot keep anything.
type fullDisk struct{ Saver }

func (fullDisk) CanSave(int, string) error { return errors.New("the disk is full") }

// Whether the images can be kept is the runner's first step: a job whose
// images could not be kept fails before anything is sent, and says so.
func TestAJobThatCannotBeKeptIsNotSent(t *testing.T) {
	svc := &fakeService{}
	var mu sync.Mutex
	var last Event
	r := New(svc, fullDisk{&fakeSaver{}}, func(e Event) { mu.Lock(); last = e; mu.Unlock() }, Options{})
	if _, err := r.Submit(Request{Generate: &api.GenerateRequest{Prompt: "p"}}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	mu.Lock()
	defer mu.Unlock()
	if last.State != Failed || last.Err == nil || last.Err.Kind != api.KindCannotKeep || !last.Err.Preflight {
		t.Fatalf("the job ended %v %+v", last.State, last.Err)
	}
	if svc.peak.Load() != 0 {
		t.Error("a request was sent though nothing could be kept")
	}
}

// arrivals is a journal that keeps images as they arrive, recording
// what the listener had been told when each was kept.
type arrivals struct {
	journal
	kept      []int
	toldFirst bool
	told      *atomic.Int32
	dropped   bool
}

func (a *arrivals) KeepArrived(_ string, n int, img api.Image) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.told.Load() > int32(len(a.kept)) {
		a.toldFirst = true
	}
	if img.Format != "png" || img.Width != 4 {
		return errors.New("not the image sent")
	}
	a.kept = append(a.kept, n)
	return nil
}

func (a *arrivals) DropArrived(string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.dropped = true
}

// finals streams two whole images, then waits.
type finals struct{ fakeService }

func (f *finals) Generate(ctx context.Context, req api.GenerateRequest, onPartial func(api.Partial)) (*api.ImageResult, error) {
	for i := range 2 {
		onPartial(api.Partial{Image: i, Data: fixture.SolidPNG(nil, 4, 4, color.Transparent), Format: "png", Final: true})
	}
	<-ctx.Done()
	return nil, &api.Error{Kind: api.KindCancelled}
}

// An image that arrives while its job is out is kept before the card is
// told it arrived: a kill after "Image 1 of 4 arrived" loses nothing.
func TestAnImageIsKeptBeforeItsArrivalIsTold(t *testing.T) {
	var told atomic.Int32
	j := &arrivals{journal: journal{open: map[string]bool{}}, told: &told}
	r := New(&finals{}, &fakeSaver{}, func(e Event) {
		if e.State == Partial && e.Preview != nil && e.Preview.Final {
			told.Add(1)
		}
	}, Options{Journal: j, Tick: time.Hour})
	id, _ := r.Submit(genReq("p"))
	deadline := time.Now().Add(5 * time.Second)
	for told.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	r.Cancel(id)
	r.Wait()
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.kept) != 2 || j.kept[0] != 0 || j.kept[1] != 1 {
		t.Errorf("kept %v", j.kept)
	}
	if j.toldFirst {
		t.Error("an arrival was told before its image was kept")
	}
}

// fullSaver fails every save, and keeps in a fallback folder only the
// images whose number is in fallback.
type fullSaver struct{ fallback map[int]bool }

func (s fullSaver) Save(_ context.Context, _ Info, res *api.ImageResult, _ honesty.Report, _ *imageio.EditPictures) []Saved {
	var out []Saved
	for _, img := range res.Images {
		out = append(out, Saved{Err: errors.New("disk full"), Image: img})
	}
	return out
}

func (s fullSaver) KeepUnsaved(_ api.Image, _ string, n int) (string, error) {
	if s.fallback[n] {
		return fmt.Sprintf("/fallback/%d.png", n), nil
	}
	return "", errors.New("no folder")
}

// twoArrive streams two whole images, then answers with both.
type twoArrive struct{ fakeService }

func (f *twoArrive) Generate(_ context.Context, _ api.GenerateRequest, onPartial func(api.Partial)) (*api.ImageResult, error) {
	var res api.ImageResult
	for i := range 2 {
		onPartial(api.Partial{Image: i, Data: fixture.SolidPNG(nil, 4, 4, color.Transparent), Format: "png", Final: true})
		res.Images = append(res.Images, api.Image{Data: fixture.SolidPNG(nil, 4, 4, color.Transparent), Format: "png", Width: 4, Height: 4})
	}
	return &res, nil
}

// A job whose save failed stays in the journal for its fallback files,
// and drops its arrived copies only when every unsaved image is in one:
// an image no fallback folder took is on disk only as its arrived copy.
func TestArrivedCopiesStayWhereNoFallbackTookAnImage(t *testing.T) {
	for _, c := range []struct {
		fallback map[int]bool
		dropped  bool
	}{
		{map[int]bool{1: true, 2: true}, true},
		{map[int]bool{1: true}, false},
	} {
		var told atomic.Int32
		j := &arrivals{journal: journal{open: map[string]bool{}}, told: &told}
		r := New(&twoArrive{}, fullSaver{c.fallback}, nil, Options{Journal: j, Tick: time.Hour})
		if _, err := r.Submit(genReq("p")); err != nil {
			t.Fatal(err)
		}
		r.Wait()
		j.mu.Lock()
		if j.dropped != c.dropped {
			t.Errorf("fallback %v: arrived copies dropped %v, want %v", c.fallback, j.dropped, c.dropped)
		}
		j.mu.Unlock()
	}
}

// A job's own listener (whoever asked) hears each of its events before
// the runner's listener (the window's), and no other job's.
func TestAJobsListenerHearsItsOwnEventsFirst(t *testing.T) {
	svc := &fakeService{release: make(chan struct{})}
	close(svc.release)
	saver := &fakeSaver{}
	var mu sync.Mutex
	var order []string
	r := New(svc, saver, func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, "window:"+e.Job.Request.Profile+":"+e.State.String())
	}, Options{})
	mine := genReq("mine")
	mine.Listener = func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, "asker:"+e.Job.Request.Profile+":"+e.State.String())
	}
	if _, err := r.Submit(mine); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if _, err := r.Submit(genReq("other")); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	mu.Lock()
	defer mu.Unlock()
	asked := 0
	for i, o := range order {
		if strings.HasPrefix(o, "asker:") {
			asked++
			if !strings.HasPrefix(o, "asker:mine:") {
				t.Errorf("the asker heard %s", o)
			}
			if i+1 >= len(order) || order[i+1] != "window:"+strings.TrimPrefix(o, "asker:") {
				t.Errorf("after %s the window did not hear the same event next: %v", o, order)
			}
		}
	}
	if asked == 0 || !strings.HasPrefix(order[len(order)-1], "window:other:") {
		t.Errorf("events: %v", order)
	}
}

// The quit dialog says nothing was charged while no request has reached
// the service (#53): an edit still uploading is not at the service, a
// generation once sent is.
func TestImagesAtServiceCountsOnlyRequestsThatReachedIt(t *testing.T) {
	svc := &fakeService{release: make(chan struct{})}
	r := New(svc, &fakeSaver{}, nil, Options{})
	edit, err := r.Submit(Request{Profile: "p", Edit: &api.EditRequest{ImageOptions: api.ImageOptions{N: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); svc.running.Load() < 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the edit never went out")
		}
	}
	if got, all := r.ImagesAtService(), r.RunningImages(); got != 0 || all != 3 {
		t.Errorf("an edit whose upload has not ended: %d of %d images at the service, want 0 of 3", got, all)
	}
	if _, err := r.Submit(Request{Profile: "p", Generate: &api.GenerateRequest{ImageOptions: api.ImageOptions{N: 2}}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); svc.running.Load() < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the generation never went out")
		}
	}
	if got := r.ImagesAtService(); got != 2 {
		t.Errorf("with a generation sent: %d images at the service, want its 2", got)
	}
	r.Cancel(edit)
	close(svc.release)
	r.Wait()
	if got := r.ImagesAtService(); got != 0 {
		t.Errorf("%d images at the service once all ended", got)
	}
}

// #58: a request the service refused left no line in the log, so a user
// asked for it after a failure had nothing to send. Each request's end
// is logged; a refusal as one warning with its status and request id,
// the prompt only as a hash.
func TestARefusedRequestLeavesOneWarningInTheLog(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})))
	defer slog.SetDefault(old)
	svc := &fakeService{release: make(chan struct{}), err: &api.Error{Kind: api.KindAuth, Status: 401, RequestID: "req-53", Message: "Incorrect API key provided"}}
	close(svc.release)
	r := New(svc, &fakeSaver{}, nil, Options{})
	if _, err := r.Submit(Request{Profile: "p", Generate: &api.GenerateRequest{Prompt: "a secret harbour", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}}}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var warned []string
	for _, l := range lines {
		if strings.Contains(l, "level=WARN") {
			warned = append(warned, l)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "status=401") || !strings.Contains(warned[0], "request_id=req-53") ||
		!strings.Contains(warned[0], "model=gpt-image-1") || strings.Contains(buf.String(), "secret harbour") {
		t.Errorf("the log:\n%s", buf.String())
	}
}

// #53: an upload the service read at a byte a second timed out after
// 600 s and suggested turning on streaming. A time-out before the whole
// request went out says so, and that nothing was charged.
func TestATimeOutDuringTheUploadSaysSo(t *testing.T) {
	r := New(&fakeService{}, &fakeSaver{}, nil, Options{})
	_, w := r.watch(context.Background(), Info{ID: "job-1", Request: Request{Edit: &api.EditRequest{}}})
	w.upload(api.Upload{Sent: 600, Total: 50 << 20, Elapsed: 600 * time.Second})
	w.stop()
	e := &api.Error{Kind: api.KindTimeout, Message: "the request timed out", Hint: "The service took too long: turn on streaming, or lower the size, quality or number of images."}
	x := w.ending(e, false)
	uploadStalled(e, x)
	if !x.Unsent || strings.Contains(e.Hint, "streaming") || !strings.Contains(e.Hint, "Nothing was charged") || !strings.Contains(e.Message, "upload too slowly") {
		t.Errorf("unsent %v: %q %q", x.Unsent, e.Message, e.Hint)
	}
	if gateway.Judge(gateway.NewAPI, x) != gateway.NotBilled {
		t.Error("judged as billed")
	}
}
