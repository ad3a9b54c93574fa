package session

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
)

// fakeObserver records what a Session tells the window; its post runs
// each answer at once, under a lock, as the window's bridge would.
type fakeObserver struct {
	mu       sync.Mutex
	changed  int
	models   int
	keyring  error
	asked    []config.Profile
	agree    bool
	firstRun bool
	failed   []error
}

func (o *fakeObserver) Changed()                { o.changed++ }
func (o *fakeObserver) ModelsChanged()          { o.models++ }
func (o *fakeObserver) KeyringFailed(err error) { o.keyring = err }
func (o *fakeObserver) FirstRun()               { o.firstRun = true }
func (o *fakeObserver) Failed(err error)        { o.failed = append(o.failed, err) }
func (o *fakeObserver) AskPlainHTTP(p config.Profile, agreed func()) {
	o.asked = append(o.asked, p)
	if o.agree {
		agreed()
	}
}

func newSession(t *testing.T, o Options) (*Session, *fakeObserver) {
	t.Helper()
	if o.ConfigPath == "" {
		o.ConfigPath = filepath.Join(t.TempDir(), "profiles.json")
	}
	if o.Keys == nil {
		o.Keys = secrets.New(secretstest.NewMemory(), 0)
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	obs := &fakeObserver{}
	s := New(o, obs, func(f func()) { obs.mu.Lock(); defer obs.mu.Unlock(); f() })
	t.Cleanup(s.Wait)
	return s, obs
}

// until polls cond under the observer's lock.
func until(t *testing.T, obs *fakeObserver, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		obs.mu.Lock()
		ok := cond()
		obs.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func fake(t *testing.T) string {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(ts.Close)
	return ts.URL + "/v1"
}

func TestNoProfileAsksTheFirstRunAndSaysWhy(t *testing.T) {
	s, obs := newSession(t, Options{})
	obs.mu.Lock()
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	obs.mu.Unlock()
	if !obs.firstRun || s.Client() != nil || s.Text() != NoServiceText() {
		t.Fatalf("first run %v, client %v, text %q", obs.firstRun, s.Client(), s.Text())
	}
}

func TestAStoredProfileConnectsWithItsKeyAndFetchesModels(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	p := config.Profile{ID: "p-1", Name: "Studio", BaseURL: fake(t)}
	if _, err := config.Open(path).Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	keys := secrets.New(secretstest.NewMemory(), 0)
	_ = keys.Set(context.Background(), p.ID, "sk-test")
	s, obs := newSession(t, Options{ConfigPath: path, Keys: keys})
	obs.mu.Lock()
	_ = s.Start()
	if s.Client() != nil {
		t.Error("connected before the key was read")
	}
	obs.mu.Unlock()
	until(t, obs, "the model list", func() bool { ms, _ := s.Models(); return len(ms) > 0 })
	if s.Current().ID != p.ID || s.ReadyText() != "Connected to “Studio”." {
		t.Errorf("current %+v, ready text %q", s.Current(), s.ReadyText())
	}
}

// A local server's profile stays usable while the keyring is down: it
// connects without a key, and the keyring's failure is reported.
func TestALocalProfileConnectsWithoutTheKeyring(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	p := config.Profile{ID: "p-local", Name: "Local", BaseURL: fake(t)}
	if _, err := config.Open(path).Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	broken := secrets.New(secretstest.Broken{Err: errors.New("no D-Bus")}, 0)
	s, obs := newSession(t, Options{ConfigPath: path, Keys: broken})
	obs.mu.Lock()
	_ = s.Start()
	obs.mu.Unlock()
	until(t, obs, "the connection", func() bool { return s.Client() != nil })
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if obs.keyring == nil {
		t.Error("the keyring's failure was not reported")
	}
	// A remote profile with the same broken keyring is not connected.
	s.Activate(config.Profile{ID: "p-remote", Name: "Remote", BaseURL: "https://gateway.example.com/v1"})
	obs.mu.Unlock()
	until(t, obs, "the remote's note", func() bool {
		return s.Client() == nil && s.Current().ID == "p-remote" && s.note != "" && s.note[:3] == "The"
	})
	obs.mu.Lock()
}

func TestPlainHTTPAsksAndRecordsTheConsent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	s, obs := newSession(t, Options{ConfigPath: path})
	obs.agree = true
	p := config.Profile{ID: "p-lan", Name: "LAN", BaseURL: "http://192.0.2.10:3000/v1"}
	obs.mu.Lock()
	s.ConnectWithConsent(p, "sk-lan")
	if len(obs.asked) != 1 || s.Client() == nil {
		t.Fatalf("asked %d times, client %v", len(obs.asked), s.Client())
	}
	obs.mu.Unlock()
	s.Wait()
	f, err := config.Open(path).Load()
	if got, ok := f.Find("LAN"); err != nil || !ok || !got.PlainHTTPConfirmed {
		t.Fatalf("consent not recorded: %+v %v", got, err)
	}
	obs.mu.Lock()
	s.ConnectWithConsent(p, "sk-lan")
	obs.mu.Unlock()
	if len(obs.asked) != 1 {
		t.Error("asked again after consent")
	}
}

// Deleting a profile whose key the keyring will not remove still deletes
// the profile, and hands the key's error to the caller to show.
func TestDeleteProfileReportsAKeyThatStayed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	p := config.Profile{ID: "p-1", Name: "Studio", BaseURL: "https://api.example.com/v1"}
	if _, err := config.Open(path).Update(func(f *config.File) error { return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	broken := secrets.New(secretstest.Broken{Err: errors.New("keyring locked")}, 0)
	s, obs := newSession(t, Options{ConfigPath: path, Keys: broken})
	var keyErr error
	done := false
	obs.mu.Lock()
	_ = s.Start()
	s.DeleteProfile(p, func(err error) { keyErr, done = err, true })
	obs.mu.Unlock()
	until(t, obs, "the deletion", func() bool { return done })
	if keyErr == nil || !secrets.IsUnavailable(keyErr) {
		t.Errorf("key error %v, want the keyring's", keyErr)
	}
	if f, _ := config.Open(path).Load(); len(f.Profiles) != 0 {
		t.Errorf("profile still in the file: %+v", f.Profiles)
	}
}

// Keys move only through the Session: a key saved is read back, one kept
// for the session says so, a missing one reads as none, and group keys
// are kept and forgotten together.
func TestKeysGoThroughTheSession(t *testing.T) {
	s, _ := newSession(t, Options{})
	ctx := context.Background()
	if k, err := s.Keys().Stored(ctx, "none"); k != "" || err != nil {
		t.Errorf("a profile without a key read %q, %v", k, err)
	}
	if err := s.Keys().Save(ctx, "p", "sk-one"); err != nil {
		t.Fatal(err)
	}
	if k, _ := s.Keys().Stored(ctx, "p"); k != "sk-one" || s.Keys().State(ctx, "p") != secrets.StateSaved {
		t.Errorf("saved key read %q, state %v", k, s.Keys().State(ctx, "p"))
	}
	s.Keys().KeepForSession("q", "sk-two")
	if s.Keys().State(ctx, "q") != secrets.StateSession {
		t.Error("a key kept for the session is not said to be")
	}
	if err := s.Keys().SaveGroups(ctx, map[string]string{"p/vip": "sk-vip"}, nil); err != nil {
		t.Fatal(err)
	}
	if k, _ := s.Keys().Stored(ctx, "p/vip"); k != "sk-vip" {
		t.Errorf("group key read %q", k)
	}
	if err := s.Keys().SaveGroups(ctx, nil, []string{"p/vip", "p/never"}); err != nil {
		t.Errorf("forgetting group keys (one never kept): %v", err)
	}
	if k, _ := s.Keys().Stored(ctx, "p/vip"); k != "" {
		t.Errorf("a forgotten group key still reads %q", k)
	}
}
