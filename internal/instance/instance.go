// Package instance keeps one Easel window per data folder. A second start
// (from a launcher, "Open with Easel", or the shell) hands its files to the
// running window over a Unix socket and exits, so no second process holds
// the gallery's database and a user never has two windows fighting over
// one library. It knows nothing of the window: the caller says what to do
// with what arrives.
package instance

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// Message is what a second start hands the running window.
type Message struct {
	// Files are absolute paths of images to open in Edit, in order.
	Files []string `json:"files"`
}

// maxMessage bounds what the window reads from one connection: another
// local process of the same user could write anything.
const maxMessage = 1 << 20

// dialWait bounds how long a second start waits for the running window.
const dialWait = 5 * time.Second

// Server is the running window's end of the socket.
type Server struct {
	ln   net.Listener
	path string
	once sync.Once
	wg   sync.WaitGroup
}

// SocketPath is the socket of the window that owns dataDir: in
// $XDG_RUNTIME_DIR (private to the user, cleared at log-out), else in a
// private folder of the temporary folder; named by a hash of the data
// folder, so two data folders (tests with their own EASEL_HOME) each have
// their own window.
func SocketPath(dataDir string) (string, error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("easel-%d", os.Getuid()))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		if st, err := os.Lstat(dir); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
			return "", fmt.Errorf("instance: %s is not a private folder", dir)
		}
	}
	return filepath.Join(dir, "easel-"+hex.EncodeToString(sum[:6])+".sock"), nil
}

// Claim makes this process the window for dataDir, or hands msg to the
// window that already is and reports handed: the caller then exits. A
// socket left by a crash (nothing listens) is removed and taken over. A
// lock beside the socket makes two starts at once agree on one window.
func Claim(dataDir string, msg Message) (srv *Server, handed bool, err error) {
	path, err := SocketPath(dataDir)
	if err != nil {
		return nil, false, err
	}
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), dialWait)
	defer cancel()
	if ok, err := lock.TryLockContext(ctx, 20*time.Millisecond); err != nil || !ok {
		return nil, false, fmt.Errorf("instance: cannot lock %s: %v", path, err)
	}
	defer lock.Unlock() //nolint:errcheck // released on the way out either way

	if err := send(path, msg); err == nil {
		return nil, true, nil
	} else if !errors.Is(err, errNobody) {
		return nil, false, err
	}
	_ = os.Remove(path) // stale: its window is gone
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, false, fmt.Errorf("instance: %w", err)
	}
	_ = os.Chmod(path, 0o600)
	return &Server{ln: ln, path: path}, false, nil
}

// errNobody says no window listens on the socket.
var errNobody = errors.New("instance: no window is running")

// send hands msg to the window listening at path and waits for its "ok".
func send(path string, msg Message) error {
	conn, err := net.DialTimeout("unix", path, dialWait)
	if err != nil {
		return errNobody
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(dialWait))
	if err := json.NewEncoder(conn).Encode(msg); err != nil {
		return fmt.Errorf("instance: the running Easel did not take the files: %w", err)
	}
	reply, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || reply != "ok\n" {
		return fmt.Errorf("instance: the running Easel did not answer (%v)", err)
	}
	return nil
}

// Serve hands each message that arrives to handle, one at a time, until
// Close. handle must not block for long.
func (s *Server) Serve(handle func(Message)) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			conn, err := s.ln.Accept()
			if err != nil {
				return // closed
			}
			s.answer(conn, handle)
		}
	}()
}

func (s *Server) answer(conn net.Conn, handle func(Message)) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(dialWait))
	var msg Message
	if err := json.NewDecoder(io.LimitReader(conn, maxMessage)).Decode(&msg); err != nil {
		return
	}
	handle(msg)
	_, _ = io.WriteString(conn, "ok\n")
}

// Path is the socket's path.
func (s *Server) Path() string { return s.path }

// Close stops listening and removes the socket, so the next start opens a
// window rather than finding a stale one.
func (s *Server) Close() {
	s.once.Do(func() {
		s.ln.Close()
		s.wg.Wait()
		_ = os.Remove(s.path)
	})
}
