//go:build keyring

package secrets

import (
	"context"
	"errors"
	"testing"

	"easel/internal/secrets/storetest"
)

// These tests need the real system store: on Linux an unlocked Secret
// Service (`make test` runs them inside dbus-run-session with
// gnome-keyring-daemon), on Windows the Credential Manager (`make
// test-windows`, under Wine). storetest reads and writes it as another
// program would.

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
		if got, ok := storetest.Lookup(Service, user); !ok || got != key {
			t.Fatalf("the store holds %q (found %v), want %q", got, ok, key)
		}
		if got, err := k.Get(ctx, user); err != nil || got != key {
			t.Fatalf("Get = %q, %v", got, err)
		}
	}
	if err := k.Delete(ctx, user); err != nil {
		t.Fatal(err)
	}
	if _, ok := storetest.Lookup(Service, user); ok {
		t.Fatal("the store still holds the key after Delete")
	}
	if _, err := k.Get(ctx, user); !errors.Is(err, ErrNoKey) {
		t.Fatalf("Get after Delete: %v, want ErrNoKey", err)
	}
}

// A key another program stored under Easel's service is Easel's key.
func TestRealKeyringReadsAKeyStoredByHand(t *testing.T) {
	ctx := context.Background()
	const user = "p-stored-by-secret-tool"
	if err := storetest.Store(Service, user, "sk-from-secret-tool"); err != nil {
		t.Fatalf("storing by hand: %v", err)
	}
	k := New(OSKeyring{}, 0)
	t.Cleanup(func() { _ = k.Delete(ctx, user) })
	if got, err := k.Get(ctx, user); err != nil || got != "sk-from-secret-tool" {
		t.Fatalf("Get = %q, %v", got, err)
	}
}
