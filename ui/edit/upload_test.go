package edit

import (
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dustin/go-humanize"

	"easel/internal/gateway"
	"easel/internal/jobs"
	"easel/ui/room/roomtest"
)

// noiseRefs writes n PNGs of noise, side x side, stored uncompressed:
// about 4·side² bytes each.
func noiseRefs(t *testing.T, n, side int) []string {
	t.Helper()
	var out []string
	for i := range n {
		img := image.NewNRGBA(image.Rect(0, 0, side, side))
		r := rand.New(rand.NewPCG(uint64(i), 3))
		for j := range img.Pix {
			img.Pix[j] = uint8(r.Uint32())
		}
		p := filepath.Join(t.TempDir(), "ref.png")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
		out = append(out, p)
	}
	return out
}

// cardLog keeps what an edit's card said, event by event.
type cardLog struct {
	mu     sync.Mutex
	said   []string
	states []jobs.State
	job    string
}

func (l *cardLog) watch(h *roomtest.Host, r *Room) {
	h.OnJob = func(e jobs.Event) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.job = e.Job.ID
		l.states = append(l.states, e.State)
		if c := r.Jobs().Card(e.Job.ID); c != nil {
			l.said = append(l.said, c.Status.Text+" | "+c.Hint())
		}
	}
}

func (l *cardLog) final() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.states) > 0 && l.states[len(l.states)-1].Final()
}

// uploadReport reads "Sending X of Y…" back into bytes.
func uploadReport(s string) (sent, total uint64, ok bool) {
	s, _, _ = strings.Cut(s, " | ")
	rest, found := strings.CutPrefix(s, "Sending ")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rest, " of ")
	if !found {
		return 0, 0, false
	}
	b, _, _ = strings.Cut(b, " · ")
	sent, err1 := humanize.ParseBytes(a)
	total, err2 := humanize.ParseBytes(b)
	return sent, total, err1 == nil && err2 == nil
}

// Over a slow link the card says how far the upload is, rising in order
// to the whole, and only then that it waits for the service.
func TestTheCardSaysHowFarTheUploadIs(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{UploadRate: 6 << 20})
	r := New(h)
	h.Show(r.Build)
	var log cardLog
	log.watch(h, r)
	// 12 MB: two seconds, a few MB of them taken at once by the
	// system's socket buffers.
	refs := noiseRefs(t, 3, 1000)
	h.UI(func() { r.AddFiles(refs) })
	h.Until("the references", func() bool { return len(r.strip.inputs) == 3 })
	if r.strip.inputs[1].Image.Data != nil || r.strip.inputs[1].Image.Path == "" {
		t.Error("a reference sent as it is was read into memory")
	}
	h.UI(func() {
		r.Prompt().SetText("the three together")
		r.PrimaryAction()
	})
	h.Until("the edit's end", log.final)
	log.mu.Lock()
	defer log.mu.Unlock()
	var last uint64
	reports, whole, waitedEarly := 0, false, false
	for _, s := range log.said {
		if sent, total, ok := uploadReport(s); ok {
			reports++
			if sent < last {
				t.Errorf("the upload went back from %d to %d bytes: %q", last, sent, s)
			}
			last, whole = sent, sent == total
			continue
		}
		if strings.HasPrefix(s, "Waiting for the service") || strings.HasPrefix(s, "Sent ") {
			waitedEarly = waitedEarly || !whole
		}
	}
	if reports < 3 || !whole {
		t.Errorf("%d upload reports, the last whole: %v; the card said %q", reports, whole, log.said)
	}
	if waitedEarly {
		t.Errorf("the card said it waited for the service before the upload ended: %q", log.said)
	}
	if s := log.said[len(log.said)-1]; !strings.HasPrefix(s, "Done") {
		t.Errorf("the edit ended with %q", s)
	}
}

// Cancel during the upload stops it at once: no byte more is reported,
// and the card says the service never had the whole request, so it was
// not charged, however long the upload had gone on (past the
// gateway.BilledAfter after which a cancel of a request the service has
// may be billed).
func TestCancelDuringTheUploadSaysNothingWasCharged(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{UploadRate: 1 << 20})
	r := New(h)
	h.Show(r.Build)
	var log cardLog
	log.watch(h, r)
	refs := noiseRefs(t, 2, 1400) // 15.7 MB: twelve seconds

	h.UI(func() { r.AddFiles(refs) })
	h.Until("the references", func() bool { return len(r.strip.inputs) == 2 })
	h.UI(func() {
		r.Prompt().SetText("the two together")
		r.PrimaryAction()
	})
	sent := time.Now()
	h.Until("three quarters of the upload", func() bool {
		log.mu.Lock()
		defer log.mu.Unlock()
		for _, s := range log.said {
			if sent, total, ok := uploadReport(s); ok && sent > total*3/4 {
				return true
			}
		}
		return false
	})
	if took := time.Since(sent); took < gateway.BilledAfter {
		t.Fatalf("the upload was out %v, not the %v the test needs", took, gateway.BilledAfter)
	}
	h.UI(func() { r.Cancel(log.job) })
	h.Until("the cancel", log.final)
	log.mu.Lock()
	defer log.mu.Unlock()
	last := log.said[len(log.said)-1]
	if log.states[len(log.states)-1] != jobs.Cancelled || !strings.Contains(last, "nothing was charged") || strings.Contains(last, "may have been charged") {
		t.Errorf("cancelled mid-upload, the card says %q", last)
	}
	for _, s := range log.said {
		if sent, total, ok := uploadReport(s); ok && sent == total {
			t.Errorf("the whole upload went out despite the cancel: %q", s)
		}
	}
}
