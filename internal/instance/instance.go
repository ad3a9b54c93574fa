// Package instance keeps one Easel window per data folder. A second start
// (from a launcher, "Open with Easel", or the shell) hands its files to the
// running window over a local endpoint (a Unix socket, or a named pipe
// on Windows: endpoint_*.go) and exits, so no second process holds
// the gallery's database and a user never has two windows fighting over
// one library. It knows nothing of the window: the caller says what to do
// with what arrives.
package instance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// stream is one connection between a second start and the window: a
// Unix socket's, or a pipe's (an *os.File, which has deadlines too).
type stream interface {
	io.ReadWriteCloser
	SetDeadline(time.Time) error
}

// listener is the window's end, taking one connection at a time.
type listener interface {
	Accept() (stream, error)
	Close() error
}

// Server is the running window's end of the endpoint.
type Server struct {
	ln   listener
	path string
	once sync.Once
	wg   sync.WaitGroup
}

// Claim makes this process the window for dataDir, or hands msg to the
// window that already is and reports handed: the caller then exits. A
// socket left by a crash (nothing listens) is removed and taken over. A
// lock file (endpoint says where) makes two starts at once agree on one
// window.
func Claim(dataDir string, msg Message) (srv *Server, handed bool, err error) {
	path, lockPath, err := endpoint(dataDir)
	if err != nil {
		return nil, false, err
	}
	lock := flock.New(lockPath, flock.SetPermissions(0o600))
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
	ln, err := listen(path)
	if err != nil {
		return nil, false, fmt.Errorf("instance: %w", err)
	}
	return &Server{ln: ln, path: path}, false, nil
}

// errNobody says no window listens on the socket.
var errNobody = errors.New("instance: no window is running")

// send hands msg to the window listening at path and waits for its "ok".
func send(path string, msg Message) error {
	conn, err := dial(path, dialWait)
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

func (s *Server) answer(conn stream, handle func(Message)) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(dialWait))
	var msg Message
	if err := json.NewDecoder(io.LimitReader(conn, maxMessage)).Decode(&msg); err != nil {
		return
	}
	handle(msg)
	_, _ = io.WriteString(conn, "ok\n")
}

// Path is where the window listens: the socket's path, or the pipe's name.
func (s *Server) Path() string { return s.path }

// Close stops listening and removes the endpoint, so the next start
// opens a window rather than finding a stale one.
func (s *Server) Close() {
	s.once.Do(func() {
		_ = s.ln.Close()
		s.wg.Wait()
		unlisten(s.path)
	})
}
