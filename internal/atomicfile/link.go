package atomicfile

import "os"

// exists is the error WriteNew returns when path is taken: errors.Is(err,
// fs.ErrExist) holds for it on every platform, whatever the system said.
func exists(tmp, path string) error {
	return &os.LinkError{Op: "rename", Old: tmp, New: path, Err: os.ErrExist}
}
