package secrets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/secrets/secretstest"
)

// hangingBackend never answers, as a keyring waiting for an unlock prompt.
type hangingBackend struct{ release chan struct{} }

func (b hangingBackend) Get(string, string) (string, error) { <-b.release; return "", nil }
func (b hangingBackend) Set(string, string, string) error   { <-b.release; return nil }
func (b hangingBackend) Delete(string, string) error        { <-b.release; return nil }

func TestSetGetReplaceDelete(t *testing.T) {
	ctx := context.Background()
	k := New(secretstest.NewMemory(), 0)
	if _, err := k.Get(ctx, "p-1"); !errors.Is(err, ErrNoKey) {
		t.Fatalf("empty keyring: %v, want ErrNoKey", err)
	}
	for _, key := range []string{"sk-first-0000", "sk-second-1111"} {
		if err := k.Set(ctx, "p-1", key); err != nil {
			t.Fatal(err)
		}
		if got, err := k.Get(ctx, "p-1"); err != nil || got != key {
			t.Fatalf("Get = %q, %v; want %q", got, err, key)
		}
	}
	if err := k.Delete(ctx, "p-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Get(ctx, "p-1"); !errors.Is(err, ErrNoKey) {
		t.Fatalf("after delete: %v", err)
	}
	if err := k.Delete(ctx, "p-1"); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
	if err := k.Check(ctx); err != nil {
		t.Fatalf("Check on a working keyring: %v", err)
	}
}

// Any error other than ErrNotFound is "unavailable", never "no key", and
// a session key then stands in.
func TestBrokenKeyringIsUnavailableNotEmpty(t *testing.T) {
	ctx := context.Background()
	k := New(secretstest.Broken{Err: errors.New("org.freedesktop.secrets was not provided by any .service files")}, 0)
	for name, err := range map[string]error{
		"get":    func() error { _, err := k.Get(ctx, "p"); return err }(),
		"set":    k.Set(ctx, "p", "sk-secret-value"),
		"delete": k.Delete(ctx, "p"),
		"check":  k.Check(ctx),
	} {
		if !IsUnavailable(err) || errors.Is(err, ErrNoKey) {
			t.Errorf("%s: %v, want unavailable", name, err)
		}
		if err != nil && strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("%s: the error text holds the key: %v", name, err)
		}
	}
	k.KeepForSession("p", "sk-session")
	if got, err := k.Get(ctx, "p"); err != nil || got != "sk-session" {
		t.Fatalf("session key: %q, %v", got, err)
	}
	_ = k.Delete(ctx, "p")
	if _, ok := k.SessionKey("p"); ok {
		t.Fatal("Delete kept the session key")
	}
}

func TestHangingKeyringTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	k := New(hangingBackend{release}, 100*time.Millisecond)
	start := time.Now()
	_, err := k.Get(context.Background(), "p")
	if !IsUnavailable(err) {
		t.Fatalf("Get on a hanging keyring: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("gave up after %s, want about 100ms", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := k.Set(ctx, "p", "k"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Set: %v", err)
	}
}

// With no session bus to be found, Easel must not start one (godbus's
// autolaunch would leave a dbus-daemon and a gnome-keyring-daemon behind
// at every start): the keyring is unavailable, and says why.
func TestNoSessionBusIsFoundNotStarted(t *testing.T) {
	runtimeDir := t.TempDir()
	env := map[string]string{"XDG_RUNTIME_DIR": runtimeDir}
	getenv := func(k string) string { return env[k] }
	if err := sessionBus(getenv); !errors.Is(err, errNoSessionBus) {
		t.Fatalf("no address, no socket: %v", err)
	}
	// A plain file where the socket would be is not a bus.
	if err := os.WriteFile(filepath.Join(runtimeDir, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := sessionBus(getenv); !errors.Is(err, errNoSessionBus) {
		t.Fatalf("a file named bus: %v", err)
	}
	env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/run/user/1000/bus"
	if err := sessionBus(getenv); err != nil {
		t.Fatalf("with an address: %v", err)
	}
}
