//go:build unix

package library

import (
	"os"

	"golang.org/x/sys/unix"
)

// diskFree is the space available to this user on the disk holding dir:
// statfs's blocks free to unprivileged users (the root reserve left out).
func diskFree(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}

// canWrite says why this process may not write path (a file or a
// folder), nil when it may: access(2) asks the kernel, which knows the
// mode bits, ACLs and a read-only mount, without writing anything.
func canWrite(path string) error {
	if err := unix.Access(path, unix.W_OK); err != nil {
		return &os.PathError{Op: "access", Path: path, Err: err}
	}
	return nil
}
