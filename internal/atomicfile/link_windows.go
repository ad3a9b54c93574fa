package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// link puts tmp at path unless path is taken. Windows has no hard-link
// fallback worth having (FAT and many network drives lack links) but its
// MoveFileEx already refuses to replace a file unless asked to with
// MOVEFILE_REPLACE_EXISTING, in one step, on every file system; os.Rename
// asks, this does not. MOVEFILE_WRITE_THROUGH returns only when the move
// is on the disk, as the folder's sync does elsewhere.
func link(tmp, path string) error {
	from, err := windows.UTF16PtrFromString(tmp)
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	err = windows.MoveFileEx(from, to, windows.MOVEFILE_WRITE_THROUGH)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_ALREADY_EXISTS), errors.Is(err, windows.ERROR_FILE_EXISTS):
		os.Remove(tmp)
		return exists(tmp, path)
	}
	os.Remove(tmp)
	return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: err}
}
