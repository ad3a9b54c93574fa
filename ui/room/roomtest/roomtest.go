// Package roomtest is a fake of the window for testing one room alone:
// the host every tab declares (room.SendHost and the tabs' own Host
// interfaces), with its own temporary gallery, a session on a fake
// service, and a UI goroutine of its own that runs every update in order,
// one at a time, as Fyne's does, so a test reads the room's widgets only
// on it.
package roomtest

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/saver"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/internal/session"
	"easel/internal/spend"
	"easel/internal/thumbs"
	"easel/internal/work"
	"easel/ui/batches"
	"easel/ui/modelpick"
	"easel/ui/room"
)

// Host is the window as every tab sees it, for tests.
type Host struct {
	t testing.TB
	// queue feeds the host's UI goroutine.
	mu    sync.Mutex
	queue []func()
	// running counts the update running, so the end of a test waits
	// for it rather than tear the app down under it.
	running sync.WaitGroup
	wake    chan struct{}
	closed  bool
	win     fyne.Window
	sess    *session.Session
	lib     *library.Library
	run     *jobs.Runner
	th      *thumbs.Service
	reg     *modelpick.Registry
	// OnJob receives the runner's events on the UI side, under the lock.
	OnJob func(jobs.Event)
	// batches are the host's batches of the Batch API, made when first
	// asked for.
	batches *batches.Panel
	Calls
	// chatBodies are the bodies of the chat requests the fake service
	// received, in order.
	chatBodies [][]byte
	editBodies []recorded
	bodiesMu   sync.Mutex
	baseURL    string
	work       *work.Scope
}

// Calls is the part of the fake window a test reads back: what a room
// asked of the window beyond being served (open an item or Settings,
// Edit this, More like this, Save as, Use as prompt, a notice), each
// recorded. Its fields are read and written on the host's UI goroutine.
type Calls struct {
	// Notified records Notify as "title: body".
	Notified []string
	// Opened and Settings record OpenItem and ShowSettings.
	Opened   []int64
	Settings int
	// MoreLike records MoreLikeItem.
	MoreLike []int64
	// SavedAs records SaveImageAs; Edited records EditItem; Prompts
	// records UsePrompt as "target: text".
	SavedAs []api.Image
	Edited  []int64
	Prompts []string
}

// UsePrompt implements the tabs' hosts.
func (c *Calls) UsePrompt(target, text string) { c.Prompts = append(c.Prompts, target+": "+text) }

// OpenItem implements the tabs' hosts: it records the item.
func (c *Calls) OpenItem(id int64) { c.Opened = append(c.Opened, id) }

// ShowSettings implements the tabs' hosts: it counts the calls.
func (c *Calls) ShowSettings() { c.Settings++ }

// EditItem implements the tabs' hosts: it records the item.
func (c *Calls) EditItem(id int64) { c.Edited = append(c.Edited, id) }

// MoreLikeItem implements the tabs' hosts: it records the item.
func (c *Calls) MoreLikeItem(id int64) { c.MoreLike = append(c.MoreLike, id) }

// SaveImageAs implements the tabs' hosts: it records the image offered.
func (c *Calls) SaveImageAs(img api.Image, prompt string, n int) { c.SavedAs = append(c.SavedAs, img) }

// Notify implements batches.Host.
func (c *Calls) Notify(title, body string, _ bool) { c.Notified = append(c.Notified, title+": "+body) }

// SpendChanged implements the tabs' hosts: the test host has no status bar.
func (c *Calls) SpendChanged() {}

// GalleryChanged implements the tabs' hosts: the test host has no gallery tab.
func (c *Calls) GalleryChanged() {}

// Options change the fake service a host talks to.
type Options struct {
	// Pace is the fake service's delay between stream events.
	Pace time.Duration
	// Quirks make the fake service behave like a gateway.
	Quirks []demoservice.Quirk
	// UploadRate is the bytes a second the fake service reads of an
	// edit's upload; 0 as fast as they come.
	UploadRate int64
	// RecordEdits keeps each edit's body as the service received it
	// (Edits), up to 64 MB each.
	RecordEdits bool
	// Drift makes the fake service's edits stray outside the marks
	// (demoservice.Config.Drift).
	Drift float64
	// Batches is how the fake service plays the Batch API
	// (demoservice.Config.Batches); BatchExpireAfter lets each batch's
	// window run out after so many answers.
	Batches          string
	BatchExpireAfter int
	// Profile, when set, is a stored profile the session opens on (its
	// base URL is set to the fake service's, its key is kept in the
	// test keyring), instead of the keyless demo: for a budget or prices
	// of its own.
	Profile *config.Profile
}

// New makes a host with an empty gallery, connected to a fresh fake
// service; everything is closed when the test ends.
func New(t testing.TB) *Host { return NewWith(t, Options{}) }

// NewWith is New with a fake service of the given options.
func NewWith(t testing.TB, o Options) *Host {
	t.Helper()
	app := test.NewTempApp(t)
	h := &Host{t: t, win: app.NewWindow("room"), wake: make(chan struct{}, 1)}
	h.work = work.New(h.Do)
	go h.loop()
	h.win.Resize(fyne.NewSize(1280, 800))
	lib, err := library.Open(filepath.Join(t.TempDir(), "library"))
	if err != nil {
		t.Fatal(err)
	}
	h.lib = lib
	h.th = thumbs.New(lib.Thumbnails())
	h.run = jobs.New(nil, saver.Library{Lib: lib}, func(e jobs.Event) {
		h.Do(func() {
			if h.OnJob != nil {
				h.OnJob(e)
			}
		})
	}, jobs.Options{Memory: lib.Memory(), Ledger: spend.Ledger{Books: lib.Ledger()}})
	fake := demoservice.New(demoservice.Config{Pace: o.Pace, Quirks: o.Quirks, UploadRate: o.UploadRate, Drift: o.Drift, Batches: o.Batches, BatchExpireAfter: o.BatchExpireAfter})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") || strings.HasSuffix(r.URL.Path, "/images/edits") && o.RecordEdits {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
			h.bodiesMu.Lock()
			if strings.HasSuffix(r.URL.Path, "/images/edits") {
				h.editBodies = append(h.editBodies, recorded{body, r.Header.Get("Content-Type")})
			} else {
				h.chatBodies = append(h.chatBodies, body)
			}
			h.bodiesMu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		fake.ServeHTTP(w, r)
	}))
	h.baseURL = ts.URL + "/v1"
	opts := session.Options{
		ConfigPath: filepath.Join(t.TempDir(), "profiles.json"),
		Keys:       secrets.New(secretstest.NewMemory(), 0),
		Getenv:     func(string) string { return "" },
		BaseURL:    ts.URL + "/v1",
	}
	if o.Profile != nil {
		p := *o.Profile
		p.BaseURL, opts.BaseURL = ts.URL+"/v1", ""
		if _, err := config.Open(opts.ConfigPath).Update(func(f *config.File) error {
			f.Active = p.ID
			return f.Put(p)
		}); err != nil {
			t.Fatal(err)
		}
		if err := opts.Keys.Set(t.Context(), p.ID, "sk-roomtest-key-123456"); err != nil {
			t.Fatal(err)
		}
	}
	h.sess = session.New(opts, quiet{}, h.Do)
	h.reg = modelpick.NewRegistry(nil)
	h.UI(func() { _ = h.sess.Start() })
	t.Cleanup(func() {
		h.sess.Wait()
		h.run.Wait()
		h.work.Close(10 * time.Second)
		h.UI(func() {})
		h.mu.Lock()
		h.closed = true // no update after this: those queued are dropped
		h.queue = nil
		h.mu.Unlock()
		h.running.Wait() // and the one running, if any, ends first
		h.th.Wait()
		lib.Close()
		ts.Close()
	})
	return h
}

// recorded is a request's body and content type as the service got it.
type recorded struct {
	body        []byte
	contentType string
}

// Edits are the multipart forms of the edits the fake service received,
// in order (with RecordEdits); safe from any goroutine.
func (h *Host) Edits() []*multipart.Form {
	h.bodiesMu.Lock()
	defer h.bodiesMu.Unlock()
	var out []*multipart.Form
	for _, r := range h.editBodies {
		_, params, err := mime.ParseMediaType(r.contentType)
		if err != nil {
			continue
		}
		if f, err := multipart.NewReader(bytes.NewReader(r.body), params["boundary"]).ReadForm(64 << 20); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// ServiceURL is the fake service's base URL, for a command line run
// against the same service.
func (h *Host) ServiceURL() string { return h.baseURL }

// Bodies are the bodies of the chat requests the fake service received,
// in order; safe from any goroutine.
func (h *Host) Bodies() [][]byte {
	h.bodiesMu.Lock()
	defer h.bodiesMu.Unlock()
	return append([][]byte(nil), h.chatBodies...)
}

// Window implements the tabs' hosts.
func (h *Host) Window() fyne.Window { return h.win }

// Do implements the tabs' hosts: f is queued for the host's UI goroutine.
func (h *Host) Do(f func()) {
	h.mu.Lock()
	if !h.closed {
		h.queue = append(h.queue, f)
	}
	h.mu.Unlock()
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// Work implements the tabs' hosts: a scope of work that ends with the
// test.
func (h *Host) Work() work.Starter { return h.work }

// Wait waits until no task started with Go is running.
func (h *Host) Wait() { h.work.Wait() }

// UI runs f on the host's UI goroutine and waits for it.
func (h *Host) UI(f func()) {
	done := make(chan struct{})
	h.Do(func() { f(); close(done) })
	<-done
}

func (h *Host) loop() {
	for range h.wake {
		for {
			h.mu.Lock()
			if h.closed || len(h.queue) == 0 {
				h.mu.Unlock()
				break
			}
			f := h.queue[0]
			h.queue = h.queue[1:]
			h.running.Add(1) // under mu, while not closed: never after Wait
			h.mu.Unlock()
			f()
			h.running.Done()
		}
	}
}

// Session implements the tabs' hosts.
func (h *Host) Session() *session.Session { return h.sess }

func (h *Host) Service() room.Service { return h.sess }

// Runner implements the tabs' hosts.
func (h *Host) Runner() *jobs.Runner { return h.run }

// Library implements the tabs' hosts.
func (h *Host) Library() *library.Library { return h.lib }

// Ledger implements dialogs.Host.
func (h *Host) Ledger() *library.Ledger { return h.lib.Ledger() }

// Memory implements dialogs.Host.
func (h *Host) Memory() *library.Memory { return h.lib.Memory() }

// LibraryErr implements the tabs' hosts.
func (h *Host) LibraryErr() error { return nil }

// Thumbs implements the tabs' hosts.
func (h *Host) Thumbs() *thumbs.Service { return h.th }

// Models implements the tabs' hosts.
func (h *Host) Models() *modelpick.Registry { return h.reg }

// Clipboard implements the tabs' hosts.
func (h *Host) Clipboard() fyne.Clipboard { return fyne.CurrentApp().Clipboard() }

// Show builds a room's widgets on the UI goroutine and puts them in the
// window.
func (h *Host) Show(build func() fyne.CanvasObject) { h.UI(func() { h.win.SetContent(build()) }) }

// Until polls cond between updates until it holds, or fails the test.
func (h *Host) Until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var ok bool
		h.UI(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// quiet is a session observer with nothing to tell.
type quiet struct{}

func (quiet) Changed()                            {}
func (quiet) ModelsChanged()                      {}
func (quiet) KeyringFailed(error)                 {}
func (quiet) AskPlainHTTP(config.Profile, func()) {}
func (quiet) FirstRun()                           {}
func (quiet) Failed(error)                        {}

// Walk calls f on o and on everything drawn inside it (containers'
// objects and widgets' renderers' objects), for tests that look for a
// button or a text in a dialog.
func Walk(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			Walk(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			Walk(c, f)
		}
	}
}

// Batches implements the rooms' Host: a panel of batches, read every
// few milliseconds.
func (h *Host) Batches() *batches.Panel {
	if h.batches == nil && h.lib != nil {
		h.batches = batches.New(h, 5*time.Millisecond)
	}
	return h.batches
}

// Overlay waits for the top overlay (a dialog) to hold a button labelled
// label, and returns it with every label's text in the overlay.
func (h *Host) Overlay(label string) (b *widget.Button, said string) {
	h.t.Helper()
	h.Until(label, func() bool {
		b, said = nil, ""
		top := h.Window().Canvas().Overlays().Top()
		if top == nil {
			return false
		}
		Walk(top, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Button:
				if x.Text == label {
					b = x
				}
			case *widget.Label:
				said += x.Text
			}
		})
		return b != nil
	})
	return b, said
}
