//go:build !windows

package atomicfile

import "os"

// linkAndUnlink puts tmp at path with a hard link, which fails when the
// name exists, then removes the temporary name: two steps, for file
// systems with no rename that refuses to replace.
func linkAndUnlink(tmp, path string) error {
	defer os.Remove(tmp)
	return os.Link(tmp, path)
}
