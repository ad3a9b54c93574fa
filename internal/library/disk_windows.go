package library

import (
	"os"

	"golang.org/x/sys/windows"
)

// diskFree is the space available to this user on the disk holding dir:
// GetDiskFreeSpaceEx's figure for the caller, which counts disk quotas.
func diskFree(dir string) (uint64, error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, err
	}
	var free, total, all uint64
	if err := windows.GetDiskFreeSpaceEx(p, &free, &total, &all); err != nil {
		return 0, &os.PathError{Op: "GetDiskFreeSpaceEx", Path: dir, Err: err}
	}
	return free, nil
}

// canWrite says why this process may not write path (a file or a
// folder), nil when it may. Windows has no access(2): its only mode bit
// is the read-only attribute, and what decides is the folder's ACL and
// the drive. So a file is opened for writing (nothing written; SQLite shares its files
// for writing, so an open gallery does not count against it), and a
// folder is asked to hold a new, empty file, removed at once.
func canWrite(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		f, err := os.CreateTemp(path, ".easel-probe-*")
		if err != nil {
			return err
		}
		f.Close()
		return os.Remove(f.Name())
	}
	if st.Mode().Perm()&0o200 == 0 {
		// The read-only attribute refuses writes to everyone, an
		// administrator included; Go shows it as a mode without write.
		return &os.PathError{Op: "open", Path: path, Err: windows.ERROR_ACCESS_DENIED}
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}
