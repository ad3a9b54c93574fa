package library

import (
	"os"
	"syscall"
	"testing"
)

// asAnotherUser is this test binary, run as this user: Windows honours
// the read-only attribute for every user, so no other is needed.
func asAnotherUser(*testing.T, string, bool) (string, *syscall.SysProcAttr) {
	return os.Args[0], nil
}
