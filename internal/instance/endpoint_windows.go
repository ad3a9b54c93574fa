package instance

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// On Windows the window listens on a named pipe (go-winio): Wine has no
// Unix sockets, and a pipe's access is set by a security descriptor. The
// pipe's names are machine-wide, so the name carries the user's SID, and
// its descriptor lets only that user (and the system) connect. The lock
// file sits in %TEMP%, which Windows keeps per user.

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

// listen creates the pipe at path, open to this user alone: a protected
// DACL (P) granting all access (GA) to the user's SID and to the system
// (SY), and nothing to anyone else. go-winio creates the first instance
// with FILE_FLAG_FIRST_PIPE_INSTANCE, so a pipe of that name made first
// by someone else is refused rather than shared.
func listen(path string) (net.Listener, error) {
	sid, err := userSID()
	if err != nil {
		return nil, err
	}
	return winio.ListenPipe(path, &winio.PipeConfig{SecurityDescriptor: "D:P(A;;GA;;;" + sid + ")(A;;GA;;;SY)"})
}

// dial connects to the window listening at path.
func dial(path string, wait time.Duration) (net.Conn, error) {
	return winio.DialPipe(path, &wait)
}

// unlisten has nothing to remove: a pipe goes with its last handle.
func unlisten(string) {}
