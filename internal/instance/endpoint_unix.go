//go:build unix

package instance

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"
)

// On Linux and macOS the window listens on a Unix socket in a folder only
// this user can enter, and the socket itself is 0600: the kernel checks
// both on connect, so no other user can hand the window files.

// endpoint is the socket of the window that owns dataDir, and the lock
// file beside it: in $XDG_RUNTIME_DIR (Linux: private to the user,
// cleared at log-out), else in a private folder of the temporary folder
// (on macOS $TMPDIR, already per user).
func endpoint(dataDir string) (path, lock string, err error) {
	name, err := endpointName(dataDir)
	if err != nil {
		return "", "", err
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("easel-%d", os.Getuid()))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", "", err
		}
		if st, err := os.Lstat(dir); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
			return "", "", fmt.Errorf("instance: %s is not a private folder", dir)
		}
	}
	path = filepath.Join(dir, name+".sock")
	return path, path + ".lock", nil
}

// listen takes the socket at path; one left by a crashed window (nothing
// listens, as dial found) is removed first.
func listen(path string) (listener, error) {
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	_ = os.Chmod(path, 0o600)
	return socketListener{ln}, nil
}

// socketListener is a Unix socket's listener as a listener of streams.
type socketListener struct{ net.Listener }

func (l socketListener) Accept() (stream, error) { return l.Listener.Accept() }

// dial connects to the window listening at path.
func dial(path string, wait time.Duration) (stream, error) {
	return net.DialTimeout("unix", path, wait)
}

// unlisten removes the socket file, which outlives its listener.
func unlisten(path string) { _ = os.Remove(path) }
