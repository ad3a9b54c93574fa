package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// link puts tmp at path unless path is taken. Linux renames without
// replacing in one step (renameat2 with RENAME_NOREPLACE); a file system
// that cannot (some network and FUSE mounts) gets a hard link, which also
// fails when the name exists, and the temporary name removed.
func link(tmp, path string) error {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EEXIST):
		os.Remove(tmp)
		return exists(tmp, path)
	}
	return linkAndUnlink(tmp, path)
}
