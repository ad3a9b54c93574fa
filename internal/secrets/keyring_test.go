//go:build keyring

package secrets

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// These tests need a real, unlocked Secret Service: `make test` runs them
// inside dbus-run-session with gnome-keyring-daemon (tag keyring).

func secretTool(t *testing.T, user string) (string, bool) {
	t.Helper()
	out, err := exec.Command("secret-tool", "lookup", "service", Service, "username", user).Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

func TestRealKeyringRoundTrip(t *testing.T) {
	ctx := context.Background()
	k := New(OSKeyring{}, 0)
	if err := k.Check(ctx); err != nil {
		t.Fatalf("the Secret Service is not usable: %v", err)
	}
	const user = "p-keyring-test"
	t.Cleanup(func() { _ = k.Delete(ctx, user) })
	for _, key := range []string{"sk-real-first-0123456789", "sk-real-second-9876543210"} {
		if err := k.Set(ctx, user, key); err != nil {
			t.Fatal(err)
		}
		if got, ok := secretTool(t, user); !ok || got != key {
			t.Fatalf("secret-tool reads %q (found %v), want %q", got, ok, key)
		}
		if got, err := k.Get(ctx, user); err != nil || got != key {
			t.Fatalf("Get = %q, %v", got, err)
		}
	}
	if err := k.Delete(ctx, user); err != nil {
		t.Fatal(err)
	}
	if _, ok := secretTool(t, user); ok {
		t.Fatal("secret-tool still finds the key after Delete")
	}
	if _, err := k.Get(ctx, user); !errors.Is(err, ErrNoKey) {
		t.Fatalf("Get after Delete: %v, want ErrNoKey", err)
	}
}

// A key another program stored under Easel's service is Easel's key.
func TestRealKeyringReadsSecretToolStore(t *testing.T) {
	ctx := context.Background()
	const user = "p-stored-by-secret-tool"
	cmd := exec.Command("secret-tool", "store", "--label=test", "service", Service, "username", user)
	cmd.Stdin = strings.NewReader("sk-from-secret-tool")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("secret-tool store: %v %s", err, out)
	}
	k := New(OSKeyring{}, 0)
	t.Cleanup(func() { _ = k.Delete(ctx, user) })
	if got, err := k.Get(ctx, user); err != nil || got != "sk-from-secret-tool" {
		t.Fatalf("Get = %q, %v", got, err)
	}
}
