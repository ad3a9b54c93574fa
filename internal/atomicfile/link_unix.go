//go:build linux || darwin

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// link puts tmp at path unless path is taken: the system's rename that
// refuses to replace, in one step (renameNoReplace, per system); where
// the file system cannot, a hard link, which also fails when the name
// exists, and the temporary name removed.
func link(tmp, path string) error {
	err := renameNoReplace(tmp, path)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EEXIST):
		_ = os.Remove(tmp)
		return exists(tmp, path)
	}
	return linkAndUnlink(tmp, path)
}
