package instance

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// private says why the pipe at path is open to other users, nil when it
// is not: its DACL grants only this user and the system.
func private(path string) error {
	conn, err := dial(path, time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	sd, err := windows.GetSecurityInfo(windows.Handle(conn.(*os.File).Fd()), windows.SE_KERNEL_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return err
	}
	sddl := sd.String()
	sid, err := userSID()
	if err != nil {
		return err
	}
	want := "D:P(A;;GA;;;" + sid + ")(A;;GA;;;SY)"
	if !strings.Contains(sddl, "D:P") || strings.Count(sddl, "(A;") != 2 || !strings.Contains(sddl, sid) {
		return fmt.Errorf("DACL %s, want %s", sddl, want)
	}
	return nil
}

// The pipe's name carries the user's SID: pipe names are machine-wide.
func TestThePipeIsNamedForItsUser(t *testing.T) {
	path, lock, err := endpoint(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sid, _ := userSID()
	if !strings.HasPrefix(path, `\\.\pipe\easel-`) || !strings.HasSuffix(path, sid) || lock == "" {
		t.Errorf("pipe %q, lock %q", path, lock)
	}
}
