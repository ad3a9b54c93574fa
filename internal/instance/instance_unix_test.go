//go:build unix

package instance

import (
	"fmt"
	"net"
	"os"
	"testing"
)

// private says why the socket at path is open to other users, nil when
// it is not: its mode lets only its owner connect.
func private(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("mode %v", st.Mode())
	}
	return nil
}

// A socket left by a crash (nothing listens on it) is taken over: only
// Unix sockets outlive their process; a pipe goes with it.
func TestAStaleSocketIsTakenOver(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	data := t.TempDir()
	path, _, err := endpoint(data)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // the crashed window's socket stays behind
	if _, err := os.Stat(path); err != nil {
		t.Fatal("the stale socket is not there to test with")
	}
	if srv, handed := claim(t, data); srv == nil || handed {
		t.Fatal("a stale socket kept the window from opening")
	}
}
