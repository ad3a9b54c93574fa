package secrets

import (
	"errors"
	"os"
	"path/filepath"
)

// errNoSessionBus is the keyring's cause when there is no D-Bus session
// bus to find the Secret Service on.
var errNoSessionBus = errors.New("no D-Bus session bus is running")

// sessionBus reports whether a session bus can be reached the ways a
// desktop session provides one: its address in the environment, or the
// systemd user bus socket. Without either, godbus would autolaunch a
// private bus (dbus-launch), and the Secret Service call would start a new
// gnome-keyring-daemon on it: a keyring nobody unlocks, and two processes
// left behind by every start of Easel. Easel reports the keyring as
// unavailable instead, and offers a key for this session.
func sessionBus(getenv func(string) string) error {
	if getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return nil
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		if fi, err := os.Stat(filepath.Join(dir, "bus")); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return nil
		}
	}
	return errNoSessionBus
}
