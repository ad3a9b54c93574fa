package jobs

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/applog"
	"easel/internal/gateway"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// fakeLedger records what was charged, and whether the saver had the job
// by then.
type fakeLedger struct {
	// fail, when set, is what every write returns.
	fail     error
	mu       sync.Mutex
	outcomes map[string]string
	early    map[string]bool // charged before the images were saved
	saver    *fakeSaver
	attached map[int64][]int64
}

func (f *fakeLedger) Judge(_ context.Context, _, _ string, x gateway.Ending) gateway.Verdict {
	return gateway.Judge(gateway.Unknown, x)
}

func (f *fakeLedger) Reword(context.Context, string, string, *api.Error) {}

func (f *fakeLedger) Image(_ context.Context, c spend.Charge) (spend.Charged, error) {
	t, job, outcome := c.Prices, c.Job, c.Outcome
	f.saver.mu.Lock()
	saved := false
	for _, id := range f.saver.saved {
		saved = saved || id == job
	}
	f.saver.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.outcomes[job], f.early[job] = outcome, !saved
	if f.fail != nil {
		return spend.Charged{}, f.fail
	}
	return spend.Charged{Entry: int64(len(f.outcomes)), Priced: true, Amount: pricing.Money{Amount: 0.04, Currency: t.Currency}}, nil
}

func (f *fakeLedger) Attach(_ context.Context, entry int64, items []int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.attached[entry] = items
	return nil
}

func (f *fakeLedger) outcome(job string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.outcomes[job]
	return o, ok
}

// Every request that may have been billed is written down, a finished
// one before its images are saved; a refusal and a cancel before
// anything began are not.
func TestRequestsThatMayHaveBeenBilledAreCharged(t *testing.T) {
	saver := &fakeSaver{}
	led := &fakeLedger{outcomes: map[string]string{}, early: map[string]bool{}, attached: map[int64][]int64{}, saver: saver}
	l := newLog(saver)
	run := func(svc *fakeService, cancelAfter time.Duration) (string, *Runner) {
		r := New(svc, saver, l.listen, Options{Tick: 5 * time.Millisecond, Ledger: led})
		req := genReq("p")
		req.Prices = pricing.Table{Currency: pricing.CNY}
		id, err := r.Submit(req)
		if err != nil {
			t.Fatal(err)
		}
		if cancelAfter > 0 {
			time.Sleep(cancelAfter)
			r.Cancel(id)
		} else {
			close(svc.release)
		}
		r.Wait()
		return id, r
	}
	done, _ := run(&fakeService{release: make(chan struct{})}, 0)
	if o, ok := led.outcome(done); !ok || o != "done" || !led.early[done] {
		t.Errorf("a finished request: %q %v, charged before saving %v", o, ok, led.early[done])
	}
	if items := led.attached[1]; len(items) != 1 {
		t.Errorf("its items were not attached: %v", led.attached)
	}
	last := l.events[done][len(l.events[done])-1]
	if last.Charged == nil || last.Charged.Amount.Currency != pricing.CNY {
		t.Errorf("the done event carries no charge at the profile's prices: %+v", last.Charged)
	}
	refused, _ := run(&fakeService{release: make(chan struct{}), err: &api.Error{Kind: api.KindAuth}}, 0)
	if _, ok := led.outcome(refused); ok {
		t.Error("a refused key was charged")
	}
	timedOut, _ := run(&fakeService{release: make(chan struct{}), err: &api.Error{Kind: api.KindTimeout}}, 0)
	if o, _ := led.outcome(timedOut); o != "failed" {
		t.Errorf("a time-out after the service began: %q", o)
	}
	midStream, _ := run(&fakeService{release: make(chan struct{}), partials: 1}, 30*time.Millisecond)
	if o, _ := led.outcome(midStream); o != "cancelled" {
		t.Errorf("cancelled mid-stream: %q", o)
	}
	early, _ := run(&fakeService{release: make(chan struct{})}, 30*time.Millisecond)
	if _, ok := led.outcome(early); ok {
		t.Error("cancelled at once, before any preview, was charged")
	}
}

// A ledger that cannot be written costs the entry, not the job, and says
// so in the log: with the job's id, never a key.
func TestAFailedLedgerWriteIsLogged(t *testing.T) {
	dir := t.TempDir()
	c, err := applog.Open(dir, slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	defer applog.Discard()
	defer c.Close()
	saver := &fakeSaver{}
	led := &fakeLedger{outcomes: map[string]string{}, early: map[string]bool{}, attached: map[int64][]int64{}, saver: saver,
		fail: errors.New("library: cannot write what the request cost: disk I/O error (Bearer sk-live-0123456789abcdef)")}
	l := newLog(saver)
	r := New(&fakeService{release: make(chan struct{})}, saver, l.listen, Options{Tick: 5 * time.Millisecond, Ledger: led})
	svc := r.service.(*fakeService)
	id, err := r.Submit(genReq("p"))
	if err != nil {
		t.Fatal(err)
	}
	close(svc.release)
	r.Wait()
	data, _ := os.ReadFile(filepath.Join(dir, applog.Name))
	s := string(data)
	if !strings.Contains(s, "job="+id) || !strings.Contains(s, "could not be written") || strings.Contains(s, "sk-live") {
		t.Errorf("the log says %q", s)
	}
	if last := l.events[id][len(l.events[id])-1]; last.State != Done {
		t.Errorf("the job ended %v", last.State)
	}
}
