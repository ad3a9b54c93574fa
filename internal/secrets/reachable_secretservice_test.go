//go:build unix && !darwin

package secrets

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
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

// With no D-Bus session at all, the real go-keyring must come back as
// unavailable. It runs in a child process, because godbus keeps its
// session connection in a global.
func TestNoSecretServiceIsUnavailable(t *testing.T) {
	if os.Getenv("EASEL_NO_BUS_CHILD") == "1" {
		k := New(OSKeyring{}, 3*time.Second)
		_, err := k.Get(context.Background(), "p")
		if !IsUnavailable(err) {
			t.Fatalf("Get with no bus: %v, want unavailable", err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoSecretServiceIsUnavailable$", "-test.v")
	cmd.Env = append(os.Environ(), "EASEL_NO_BUS_CHILD=1", "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/easel-bus")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
