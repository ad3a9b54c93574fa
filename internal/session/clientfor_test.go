package session

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
)

// A client for a profile beside the connected one carries that profile's
// own key (read from the keyring) to its own service, and a key that
// would cross plain http to another machine is refused.
func TestClientForAnotherProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	a := config.Profile{ID: "p-a", Name: "A", BaseURL: fake(t)}
	onlyB := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-b"}))
	t.Cleanup(onlyB.Close)
	b := config.Profile{ID: "p-b", Name: "B", BaseURL: onlyB.URL + "/v1"}
	far := config.Profile{ID: "p-far", Name: "Far", BaseURL: "http://203.0.113.9/v1"}
	if _, err := config.Open(path).Update(func(f *config.File) error {
		f.Active = a.ID
		_ = f.Put(a)
		_ = f.Put(far)
		return f.Put(b)
	}); err != nil {
		t.Fatal(err)
	}
	keys := secrets.New(secretstest.NewMemory(), 0)
	_ = keys.Set(context.Background(), a.ID, "sk-a")
	_ = keys.Set(context.Background(), b.ID, "sk-b")
	_ = keys.Set(context.Background(), far.ID, "sk-far")
	s, obs := newSession(t, Options{ConfigPath: path, Keys: keys})
	obs.mu.Lock()
	_ = s.Start()
	obs.mu.Unlock()
	until(t, obs, "connected to A", func() bool { return s.Client() != nil })
	var got *api.Client
	var gotErr error
	obs.mu.Lock()
	s.ClientFor(b, func(c *api.Client, err error) { got, gotErr = c, err })
	obs.mu.Unlock()
	until(t, obs, "B's client", func() bool { return got != nil || gotErr != nil })
	if gotErr != nil {
		t.Fatal(gotErr)
	}
	// B's service takes B's key alone.
	if _, err := got.Models(context.Background()); err != nil {
		t.Errorf("B's client cannot list B's models: %v", err)
	}
	got, gotErr = nil, nil
	obs.mu.Lock()
	s.ClientFor(far, func(c *api.Client, err error) { got, gotErr = c, err })
	obs.mu.Unlock()
	until(t, obs, "Far's answer", func() bool { return got != nil || gotErr != nil })
	if got != nil || gotErr == nil {
		t.Error("a key went over plain http to another machine without consent")
	}
}
