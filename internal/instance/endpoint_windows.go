package instance

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows the window listens on a named pipe: Wine has no Unix
// sockets, and a pipe's access is set by a security descriptor. A pipe's
// name is machine-wide, so it carries the user's SID, and its descriptor
// lets only that user (and the system) connect. The lock file sits in
// %TEMP%, which Windows keeps per user.
//
// The pipe is made with x/sys/windows rather than go-winio: go-winio keeps
// a first instance that it never connects, to hold the name, and Wine 8
// lets a client connect to that instance, so under Wine every hand-over
// hung (docs/decisions.md). Here every instance is one that will be
// connected: the next one is made before a connection is handed out, so
// the name is never free while the window runs.

// endpoint is the pipe of the window that owns dataDir, and the lock file
// two starts at once agree through.
func endpoint(dataDir string) (path, lock string, err error) {
	name, err := endpointName(dataDir)
	if err != nil {
		return "", "", err
	}
	sid, err := userSID()
	if err != nil {
		return "", "", err
	}
	return `\\.\pipe\` + name + "-" + sid, filepath.Join(os.TempDir(), name+".lock"), nil
}

// userSID is the current user's security identifier as a string (S-1-5-…).
func userSID() (string, error) {
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("instance: who is this user? %w", err)
	}
	return user.User.Sid.String(), nil
}

// pipeListener hands out the pipe's connected instances one at a time.
type pipeListener struct {
	path *uint16
	name string
	sa   *windows.SecurityAttributes
	stop windows.Handle // an event Close sets to end a waiting Accept

	mu        sync.Mutex
	next      windows.Handle // the instance the next client connects to
	accepting bool
	closed    bool
}

// listen creates the pipe at path, open to this user alone: a protected
// DACL (P) granting all access (GA) to the user's SID and to the system
// (SY), and nothing to anyone else. The first instance is made with
// FILE_FLAG_FIRST_PIPE_INSTANCE, so a pipe of that name made first by
// someone else is refused rather than joined.
func listen(path string) (listener, error) {
	sid, err := userSID()
	if err != nil {
		return nil, err
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;;GA;;;" + sid + ")(A;;GA;;;SY)")
	if err != nil {
		return nil, err
	}
	p16, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	stop, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return nil, err
	}
	l := &pipeListener{path: p16, name: path, stop: stop, sa: &windows.SecurityAttributes{
		Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd,
	}}
	if l.next, err = l.instance(true); err != nil {
		windows.CloseHandle(stop)
		return nil, err
	}
	return l, nil
}

// instance makes one instance of the pipe, for overlapped I/O so that the
// *os.File it becomes has deadlines; local clients only.
func (l *pipeListener) instance(first bool) (windows.Handle, error) {
	mode := uint32(windows.PIPE_ACCESS_DUPLEX | windows.FILE_FLAG_OVERLAPPED)
	if first {
		mode |= windows.FILE_FLAG_FIRST_PIPE_INSTANCE
	}
	return windows.CreateNamedPipe(l.path, mode,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		windows.PIPE_UNLIMITED_INSTANCES, 4096, 4096, 0, l.sa)
}

// Accept waits for a client on the waiting instance, makes the next one,
// and returns the connected one as a file.
func (l *pipeListener) Accept() (stream, error) {
	l.mu.Lock()
	if l.closed || l.next == windows.InvalidHandle {
		l.mu.Unlock()
		return nil, net.ErrClosed
	}
	h := l.next
	l.accepting = true
	l.mu.Unlock()

	err := l.connect(h)

	l.mu.Lock()
	defer l.mu.Unlock()
	l.accepting = false
	if l.closed || err != nil {
		windows.CloseHandle(h)
		l.next = windows.InvalidHandle
		if err == nil {
			err = net.ErrClosed
		}
		return nil, err
	}
	if l.next, err = l.instance(false); err != nil {
		l.next = windows.InvalidHandle
	}
	return os.NewFile(uintptr(h), l.name), nil
}

// connect waits until a client connects to h, or Close is called.
func (l *pipeListener) connect(h windows.Handle) error {
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(ev)
	for {
		ov := windows.Overlapped{HEvent: ev}
		err := windows.ConnectNamedPipe(h, &ov)
		if errors.Is(err, windows.ERROR_IO_PENDING) {
			got, werr := windows.WaitForMultipleObjects([]windows.Handle{ev, l.stop}, false, windows.INFINITE)
			if werr != nil {
				return werr
			}
			if got != windows.WAIT_OBJECT_0 {
				_ = windows.CancelIoEx(h, &ov)
				var n uint32
				_ = windows.GetOverlappedResult(h, &ov, &n, true)
				return net.ErrClosed
			}
			var n uint32
			err = windows.GetOverlappedResult(h, &ov, &n, false)
		}
		switch {
		case err == nil, errors.Is(err, windows.ERROR_PIPE_CONNECTED):
			return nil
		case errors.Is(err, windows.ERROR_NO_DATA):
			// The client came and went before we looked: wait again.
			_ = windows.DisconnectNamedPipe(h)
			continue
		}
		return err
	}
}

// Close ends a waiting Accept and frees the pipe's name.
func (l *pipeListener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	_ = windows.SetEvent(l.stop)
	if !l.accepting && l.next != windows.InvalidHandle {
		windows.CloseHandle(l.next)
		l.next = windows.InvalidHandle
	}
	return nil
}

// dial connects to the window listening at path, waiting while every
// instance is busy. The window may identify this process but not act as
// it (SECURITY_IDENTIFICATION): a pipe squatted by another program cannot
// borrow this user's rights.
func dial(path string, wait time.Duration) (stream, error) {
	p16, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		h, err := windows.CreateFile(p16, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
			windows.FILE_FLAG_OVERLAPPED|windows.SECURITY_SQOS_PRESENT|windows.SECURITY_IDENTIFICATION, 0)
		if err == nil {
			return os.NewFile(uintptr(h), path), nil
		}
		if !errors.Is(err, windows.ERROR_PIPE_BUSY) || time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// unlisten has nothing to remove: a pipe goes with its last handle.
func unlisten(string) {}
