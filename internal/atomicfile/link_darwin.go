package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// link puts tmp at path unless path is taken. macOS renames without
// replacing in one step with renameatx_np and RENAME_EXCL (APFS and HFS+
// both take it); a file system that cannot (SMB, FAT drives) gets a hard
// link, which also fails when the name exists, and the temporary name
// removed.
func link(tmp, path string) error {
	err := unix.RenameatxNp(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCL)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EEXIST):
		os.Remove(tmp)
		return exists(tmp, path)
	}
	return linkAndUnlink(tmp, path)
}
