//go:build unix && !darwin

package secrets

import (
	"context"
	"strings"
	"testing"
)

// Through Keys and the real back end, with no session bus: unavailable,
// with the cause (only the Secret Service needs a bus).
func TestNoSessionBusMakesTheKeyringUnavailable(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	_, err := New(OSKeyring{}, 0).Get(context.Background(), "p")
	if !IsUnavailable(err) || !strings.Contains(err.Error(), "no D-Bus session bus") {
		t.Fatalf("Get with no session bus: %v", err)
	}
}
