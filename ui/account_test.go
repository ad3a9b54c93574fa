package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/honesty"
	"easel/internal/library"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/ui/chrome"
	"easel/ui/room/roomtest"
)

const testKey = "sk-ui-account-key-0123456789"

// keyedFake is a fake service that takes only testKey.
func keyedFake(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: testKey}))
	t.Cleanup(ts.Close)
	return ts.URL + "/v1"
}

// waitFor polls cond under the bridge's lock, so it reads the widgets
// only between UI updates.
// waitImages waits until the gallery holds n images whose prompt matches
// search, and for every job to end: a send checks the disk off the UI
// goroutine before it submits.
func waitImages(t *testing.T, ea *App, search string, n int) {
	t.Helper()
	// A job under -race on a loaded machine (CI runs packages side by
	// side) can take well over 10 s to draw, save and thumbnail.
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, _ := ea.lib.Count(context.Background(), library.Query{Search: search})
		if got == n {
			break
		}
		if time.Now().After(deadline) {
			var cards []string
			onUI(ea, func() {
				for _, c := range ea.generate.Jobs().Cards() {
					cards = append(cards, c.Status.Text)
				}
				cards = append(cards, "generate status: "+ea.generate.StatusText())
			})
			t.Fatalf("%d images match %q, want %d; %d jobs running; cards %q", got, search, n, ea.runner.Running(), cards)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ea.runner.Wait()
}

func waitFor(t testing.TB, ea *App, what string, cond func() bool) {
	t.Helper()
	// Generous: a race-built test beside the other packages on two cores
	// (make unit) once took over 5 s to see a job through the demo.
	deadline := time.Now().Add(15 * time.Second)
	for {
		ea.bridge.mu.Lock()
		ok := cond()
		ea.bridge.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// findButton finds a button by its text in the top dialog, or nil.
func findButton(w fyne.Window, text string) *widget.Button {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	var found *widget.Button
	roomtest.Walk(top, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && b.Visible() {
			found = b
		}
	})
	return found
}

// topText is every label's text in the top dialog.
func topText(w fyne.Window) string {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	return topTextOf(top)
}

// topTextOf is the text of every label in o.
func topTextOf(o fyne.CanvasObject) string {
	var sb strings.Builder
	roomtest.Walk(o, func(o fyne.CanvasObject) {
		switch l := o.(type) {
		case *widget.Label:
			sb.WriteString(l.Text + "\n")
		case *widget.RichText:
			sb.WriteString(l.String() + "\n")
		}
	})
	return sb.String()
}

func tap(t *testing.T, w fyne.Window, text string) {
	t.Helper()
	b := findButton(w, text)
	if b == nil {
		t.Fatalf("no %q button in the top dialog; it says:\n%s", text, topText(w))
	}
	test.Tap(b)
}

func TestFirstRunTestsSavesAndConnects(t *testing.T) {
	base := keyedFake(t)
	backend := secretstest.NewMemory()
	opts := isolated(t, Options{Keys: secrets.New(backend, 0)})
	ea := newApp(t, test.NewTempApp(t), opts)
	f := ea.firstRun
	onUI(ea, func() {
		f.BaseURL.SetText(base)
		test.Type(f.Key, testKey)
		test.Tap(f.Test)
	})
	waitFor(t, ea, "the connection test", func() bool { return strings.HasPrefix(f.Result.Text, "Connected") })
	if !strings.Contains(f.Result.Text, fmt.Sprintf("%d models", len(demoservice.DefaultModels))) {
		t.Errorf("test result %q", f.Result.Text)
	}
	onUI(ea, func() { tap(t, ea.win, "Save and connect") })
	waitFor(t, ea, "the model list", func() bool { return ea.session.Client() != nil && modelsKnown(ea) })
	// The active profile is written off the UI goroutine.
	waitFor(t, ea, "the active profile on disk", func() bool {
		f, err := config.Open(opts.ConfigPath).Load()
		return err == nil && len(f.Profiles) == 1 && f.Active == f.Profiles[0].ID
	})

	file, err := config.Open(opts.ConfigPath).Load()
	if err != nil || len(file.Profiles) != 1 || file.Active != file.Profiles[0].ID {
		t.Fatalf("profiles file: %+v, %v", file, err)
	}
	if got, _ := backend.Get(secrets.Service, file.Profiles[0].ID); got != testKey {
		t.Fatalf("keyring holds %q", got)
	}
	data, _ := os.ReadFile(opts.ConfigPath)
	if strings.Contains(string(data), testKey[3:11]) {
		t.Fatal("the profiles file holds the key")
	}
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	// The pickers fill from the service, filtered to their endpoint.
	waitFor(t, ea, "the picker's list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	if ea.generate.Button().Disabled() {
		t.Fatal("Generate is disabled after connecting")
	}
	if got := ea.generate.Options().Model.Listed(); slices.Contains(got, "gpt-4.1") || !slices.Contains(got, "gpt-image-1") {
		t.Errorf("image picker lists %v", got)
	}
}

func TestFirstRunOffersTheDemo(t *testing.T) {
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{}))
	onUI(ea, func() { tap(t, ea.win, "Use the demo service") })
	waitFor(t, ea, "the demo's model list", func() bool { return modelsKnown(ea) })
	if ea.session.Client() == nil || ea.session.Current().ID != config.DemoID {
		t.Fatalf("not on the demo: %+v", ea.session.Current())
	}
	if !strings.Contains(ea.win.Title(), "Demo service") {
		t.Errorf("title %q", ea.win.Title())
	}
}

// With no D-Bus session at all, the real go-keyring fails: the banner
// says so, and a session key makes the window work.
func TestNoSecretServiceBannerAndSessionKey(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/easel-test-bus")
	base := keyedFake(t)
	keys := secrets.New(secrets.OSKeyring{}, 3*time.Second)
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{Keys: keys}))
	waitFor(t, ea, "the keyring banner", func() bool { return ea.banner.Text(chrome.BannerKeyring) != "" })
	if msg := ea.banner.Text(chrome.BannerKeyring); !strings.Contains(msg, "keyring is unavailable") {
		t.Fatalf("banner %q", msg)
	}
	f := ea.firstRun
	onUI(ea, func() {
		f.BaseURL.SetText(base)
		f.Name.SetText("Gateway")
		test.Type(f.Key, testKey)
		tap(t, ea.win, "Save and connect")
	})
	waitFor(t, ea, "the session offer", func() bool { return findButton(ea.win, "Keep for this session") != nil })
	onUI(ea, func() { tap(t, ea.win, "Keep for this session") })
	waitFor(t, ea, "the model list", func() bool { return ea.session.Client() != nil && modelsKnown(ea) })

	onUI(ea, func() {
		ea.SelectTab(TabGenerate)
		test.Type(ea.generate.Prompt(), "a session-key kite")
	})
	waitFor(t, ea, "the picker's list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	onUI(ea, ea.generate.PrimaryAction)
	waitImages(t, ea, "kite", 1)
}

func TestPlainHTTPKeyNeedsConsent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "profiles.json")
	p := config.Profile{ID: "p-lan", Name: "LAN", BaseURL: "http://192.0.2.10:3000/v1"}
	if _, err := config.Open(path).Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	keys := secrets.New(secretstest.NewMemory(), 0)
	_ = keys.Set(context.Background(), p.ID, testKey)
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{ConfigPath: path, Keys: keys}))
	waitFor(t, ea, "the warning", func() bool { return findButton(ea.win, "Send over http") != nil })
	if ea.session.Client() != nil {
		t.Fatal("connected before the user agreed")
	}
	if text := topText(ea.win); !strings.Contains(text, "192.0.2.10:3000") || !strings.Contains(text, "plain http") {
		t.Errorf("warning says %q", text)
	}
	onUI(ea, func() { tap(t, ea.win, "Send over http") })
	if ea.session.Client() == nil {
		t.Fatal("not connected after consent")
	}
	ea.session.Wait() // the profile is written in the background
	f, _ := config.Open(path).Load()
	if got, _ := f.Find("LAN"); !got.PlainHTTPConfirmed {
		t.Error("consent not recorded in the profile")
	}
}

func TestModelPickerWarnsAndSuggestsBeforeSending(t *testing.T) {
	ea := newServedApp(t)
	g := ea.generate
	g.Options().Model.SetText("GPT-Image-1")
	if !strings.Contains(g.Options().Model.Note(), "gpt-image-1") {
		t.Fatalf("no suggestion under the picker: %q", g.Options().Model.Note())
	}
	test.Type(g.Prompt(), "a suggested model")
	g.PrimaryAction()
	waitFor(t, ea, "the question about the model", func() bool { return findButton(ea.win, "Use gpt-image-1") != nil })
	if ea.runner.Running() != 0 {
		t.Fatal("sent an unlisted model without asking")
	}
	tap(t, ea.win, "Use gpt-image-1")
	waitImages(t, ea, "suggested", 1)
	items, _ := ea.lib.List(context.Background(), library.Query{Search: "suggested"})
	if len(items) != 1 || items[0].Model != "gpt-image-1" {
		t.Fatalf("saved %+v, want one image made with gpt-image-1", items)
	}
	if g.Options().Model.Note() != "" {
		t.Error("the warning stayed after the name was fixed")
	}
}

func TestSettingsAddSwitchDelete(t *testing.T) {
	base := keyedFake(t)
	keys := secrets.New(secretstest.NewMemory(), 0)
	ea := newServedAppWith(t, Options{Keys: keys})
	onUI(ea, func() {
		ea.showSettings()
		s := ea.settings
		s.Add()
		s.Form.Name.SetText("Studio")
		s.Form.BaseURL.SetText(base)
		test.Type(s.Form.Key, testKey)
		s.Form.ImageModel.SetText("gpt-image-1-mini")
		s.Form.Jobs.SetSelected("2")
		test.Tap(s.Use)
	})
	waitFor(t, ea, "the switch", func() bool {
		return ea.session.Current().Name == "Studio" && ea.session.Client() != nil && modelsKnown(ea)
	})
	if got := ea.generate.Options().Model.Text(); got != "gpt-image-1-mini" {
		t.Errorf("the profile's image model did not reach the form: %q", got)
	}
	if ea.status.bar.Profile.Selected != "Studio" {
		t.Errorf("status bar shows %q", ea.status.bar.Profile.Selected)
	}
	onUI(ea, ea.showSettings)
	waitFor(t, ea, "the key state", func() bool { return strings.Contains(ea.settings.Form.Key.PlaceHolder, "keyring") })
	if ea.settings.Form.Key.Text != "" {
		t.Fatal("Settings shows the saved key")
	}
	var id string
	onUI(ea, func() { id = ea.session.Current().ID })
	onUI(ea, func() {
		test.Tap(ea.settings.Delete)
		tap(t, ea.win, "Delete profile")
	})
	waitFor(t, ea, "the deletion", func() bool { return len(ea.session.File().Profiles) == 0 })
	if ea.session.Client() != nil {
		t.Error("still connected to a deleted profile")
	}
	waitFor(t, ea, "the key's removal", func() bool {
		_, err := keys.Get(context.Background(), id)
		return errors.Is(err, secrets.ErrNoKey)
	})
}

// newServedAppWith is newServedApp with extra options.
func newServedAppWith(t *testing.T, o Options) *App {
	t.Helper()
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(ts.Close)
	o.BaseURL = ts.URL + "/v1"
	ea := newApp(t, test.NewTempApp(t), isolated(t, o))
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	waitFor(t, ea, "the model list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	return ea
}

// A profiles file that cannot be read is left as it is; the window still
// opens, says so, and offers the first-run dialog.
func TestCorruptProfilesFileStillStarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	if err := os.WriteFile(path, []byte(`{"profiles":[{"id":"a","na`), 0o600); err != nil {
		t.Fatal(err)
	}
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{ConfigPath: path}))
	msg := ea.banner.Text(chrome.BannerConfig)
	if !strings.Contains(msg, path) || !strings.Contains(msg, "leaves the file as it is") {
		t.Fatalf("banner %q does not say the file was left as it is", msg)
	}
	if ea.firstRun == nil {
		t.Error("no first-run dialog after an unreadable file")
	}
	if kept, err := os.ReadFile(path); err != nil || string(kept) != `{"profiles":[{"id":"a","na` {
		t.Errorf("starting changed or moved the broken file: %v", err)
	}
}

// countingKeyring counts reads of the keyring.
type countingKeyring struct {
	secrets.Backend
	mu    sync.Mutex
	reads int
}

func (c *countingKeyring) Get(service, user string) (string, error) {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return c.Backend.Get(service, user)
}

func (c *countingKeyring) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}

// Start-up asks the keyring once: reading the active profile's key is
// itself the check that the keyring works; with no key to read (the demo),
// a check stands in, so a broken keyring is still reported at once.
func TestStartReadsTheKeyringOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	p := config.Profile{ID: "p-studio", Name: "Studio", BaseURL: keyedFake(t)}
	if _, err := config.Open(path).Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	backend := &countingKeyring{Backend: secretstest.NewMemory()}
	keys := secrets.New(backend, 0)
	if err := keys.Set(context.Background(), p.ID, testKey); err != nil {
		t.Fatal(err)
	}
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{ConfigPath: path, Keys: keys}))
	waitFor(t, ea, "the profile's connection", func() bool { return ea.session.Client() != nil })
	time.Sleep(100 * time.Millisecond) // a second read would have started by now
	if n := backend.count(); n != 1 {
		t.Errorf("a stored profile: %d keyring reads at start-up, want 1 (its key)", n)
	}

	demo := &countingKeyring{Backend: secretstest.NewMemory()}
	newApp(t, test.NewTempApp(t), isolated(t, Options{Demo: true, Keys: secrets.New(demo, 0)}))
	deadline := time.Now().Add(5 * time.Second)
	for demo.count() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if n := demo.count(); n != 1 {
		t.Errorf("the demo: %d keyring reads at start-up, want 1 (the check)", n)
	}
}

// The keyring banner offers a key kept for the session only where one is
// needed: not on the demo, which takes none, but on a stored profile,
// and not again once the window is back on the demo.
func TestKeyringBannerOffersASessionKeyOnlyForAStoredProfile(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/easel-test-bus")
	keys := secrets.New(secrets.OSKeyring{}, 3*time.Second)
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{Keys: keys, Demo: true}))
	offered := func() bool {
		b := ea.banner.Action(chrome.BannerKeyring)
		return b != nil && b.OnTapped != nil
	}
	waitFor(t, ea, "the keyring banner", func() bool { return ea.banner.Text(chrome.BannerKeyring) != "" })
	if offered() {
		t.Fatalf("the demo is offered a session key: %q", ea.banner.Text(chrome.BannerKeyring))
	}
	stored := config.Profile{ID: "p-gw", Name: "Gateway", BaseURL: keyedFake(t)}
	onUI(ea, func() { ea.session.Activate(stored) })
	waitFor(t, ea, "the offer of a session key", offered)
	if msg := ea.banner.Text(chrome.BannerKeyring); !strings.Contains(msg, "this session only") {
		t.Errorf("banner %q", msg)
	}
	onUI(ea, func() { ea.session.UseDemo() })
	if offered() {
		t.Error("back on the demo, the banner still offers a session key")
	}
}

// modelsKnown reports whether the connected profile's model list arrived.
func modelsKnown(ea *App) bool {
	ms, _ := ea.session.Models()
	return len(ms) > 0
}

// Closing Settings with a profile that is not saved asks first, keeping
// it by default; with nothing changed it closes at once.
func TestSettingsAskBeforeDiscardingAnUnsavedProfile(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		ea.showSettings()
		ea.settings.Add()
		ea.settings.Form.Name.SetText("Studio")
		tap(t, ea.win, "Close")
	})
	onUI(ea, func() {
		if findButton(ea.win, "Discard changes") == nil {
			t.Fatalf("no question before discarding; the top dialog says:\n%s", topText(ea.win))
		}
		tap(t, ea.win, "Keep editing")
	})
	onUI(ea, func() {
		if ea.settings == nil || ea.settings.Form.Name.Text != "Studio" {
			t.Fatal("Keep editing lost the form")
		}
		tap(t, ea.win, "Close")
		tap(t, ea.win, "Discard changes")
	})
	waitFor(t, ea, "Settings to close", func() bool { return ea.settings == nil })
	onUI(ea, func() {
		ea.showSettings() // the demo is connected: a new, untouched profile
		tap(t, ea.win, "Close")
	})
	waitFor(t, ea, "an untouched Settings to close at once", func() bool { return ea.settings == nil })
}

// With the keyring down, the key field says a typed key is kept for this
// session only.
func TestTheKeyFieldSaysWhereTheKeyIsKept(t *testing.T) {
	ea := newServedAppWith(t, Options{Keys: secrets.New(secretstest.Broken{Err: errors.New("no D-Bus")}, 0)})
	waitFor(t, ea, "the keyring's failure", func() bool { return ea.session.Keys().Err() != nil })
	onUI(ea, func() {
		ea.showSettings()
		if hint := ea.settings.Form.KeyHint(); !strings.Contains(hint, "this session only") {
			t.Errorf("the key field's hint does not say the key stays in memory: %q", hint)
		}
	})
}

// Later in the first-run dialog asks before discarding a typed key.
func TestFirstRunLaterAsksBeforeDiscarding(t *testing.T) {
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{}))
	onUI(ea, func() {
		test.Type(ea.firstRun.Key, "sk-typed")
		tap(t, ea.win, "Later")
		if findButton(ea.win, "Discard changes") == nil {
			t.Errorf("Later dropped a typed key without asking; the top dialog says:\n%s", topText(ea.win))
		}
	})
}

// Settings show what Easel learnt of the connected profile's service
// (the section itself, its lines and Forget: dialogs'
// TestTheServiceSectionSaysWhatWasLearntAndForgets).
func TestSettingsShowWhatWasLearntOfTheProfile(t *testing.T) {
	base := keyedFake(t)
	ea := newServedAppWith(t, Options{Keys: secrets.New(secretstest.NewMemory(), 0)})
	onUI(ea, func() {
		ea.showSettings()
		ea.settings.Form.Name.SetText("Gateway")
		ea.settings.Form.BaseURL.SetText(base)
		test.Type(ea.settings.Form.Key, testKey)
		test.Tap(ea.settings.Use)
	})
	waitFor(t, ea, "the profile", func() bool { return ea.session.Current().Name == "Gateway" && ea.settings == nil })
	var id string
	onUI(ea, func() { id = ea.session.Current().ID })
	at := time.Date(2026, 11, 24, 19, 3, 0, 0, time.Local)
	if err := ea.lib.Memory().Learn(context.Background(), library.KeyFor(id, "", "gpt-image-1", false), []honesty.Check{{Trait: honesty.Stream, Asked: "stream", Got: "json"}}, at); err != nil {
		t.Fatal(err)
	}
	onUI(ea, ea.showSettings)
	waitFor(t, ea, "what was learnt", func() bool {
		return ea.settings.Learnt != nil && len(ea.settings.Learnt.Lines) == 1 && strings.HasPrefix(ea.settings.Learnt.Lines[0], "gpt-image-1: ⚠")
	})
}
