package atomicfile

import "os"

// exists is the error WriteNew returns when path is taken: errors.Is(err,
// fs.ErrExist) holds for it on every platform, whatever the system said.
func exists(tmp, path string) error {
	return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: os.ErrExist}
}

// linkAndUnlink puts tmp at path with a hard link, which fails when the
// name exists, then removes the temporary name: two steps, for file
// systems with no rename that refuses to replace.
func linkAndUnlink(tmp, path string) error {
	defer os.Remove(tmp)
	return os.Link(tmp, path)
}
