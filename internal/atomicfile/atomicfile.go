// Package atomicfile writes a file so that a crash, a killed process or a
// full disk leaves either the old file or the new one, never half of
// either. Images, thumbnails and the profiles file all go through it.
package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// TempSuffix ends the name of a file still being written; whoever opens a
// folder after a crash may remove files with it.
const TempSuffix = ".tmp"

// Write writes data beside path under a temporary name (mode 0600),
// syncs it, renames it into place and syncs the folder. The folder is
// made (0700) when missing. A link at path is replaced itself: nothing is
// ever written through it to another place.
func Write(path string, data []byte) error { return WriteMode(path, data, 0o600) }

// WriteMode is Write with the file's mode: 0644 for a file the user hands
// on (an export), 0600 for Easel's own.
func WriteMode(path string, data []byte, mode os.FileMode) error {
	return place(path, data, mode, os.Rename, true)
}

// WriteNew writes data to path as Write does, but never replaces a file:
// when path exists (even as a dangling link) it returns an error for
// which errors.Is(err, fs.ErrExist) holds, and writes nothing. Two
// processes choosing the same name therefore never overwrite each other.
func WriteNew(path string, data []byte) error {
	return place(path, data, 0o600, link, true)
}

// WriteFree writes data as WriteNew does under the first free one of
// tries names in dir (name(0), name(1), …): a name taken by an earlier
// run, another process at the same moment or a planted link is passed
// over, never replaced. It returns the path written, or the first name's
// with an error for which errors.Is(err, fs.ErrExist) holds when every
// one was taken.
func WriteFree(dir string, tries int, name func(i int) string, data []byte) (string, error) {
	for i := range tries {
		path := filepath.Join(dir, name(i))
		err := WriteNew(path, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return path, err
	}
	return filepath.Join(dir, name(0)), fs.ErrExist
}

// WriteNewUnsynced is WriteNew with the file's mode and without syncing,
// for a batch of files the user hands on (an export): a failure or a
// cancel still leaves no half-written file at path, and the system
// writes it back as it does any file. A sync per file made an export of
// hundreds wait on the disk's journal, not on the cores.
func WriteNewUnsynced(path string, data []byte, mode os.FileMode) error {
	return place(path, data, mode, link, false)
}

// place writes data to a temporary file beside path (with mode), syncs
// it, puts it at path with put (a rename or a link) and syncs the folder.
// On any failure the temporary file is removed and path is untouched.
func place(path string, data []byte, mode os.FileMode, put func(tmp, path string) error, sync bool) error {
	return placeFrom(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	}, mode, put, sync)
}

// CopyUnsynced is Write with the bytes read from r as they are written,
// so a large file is never held whole, and without syncing: for a copy
// of a file the user still has, where a power cut costs at most the
// copy and a sync of 800 MB cost the wait of an upload. r's error is
// returned.
func CopyUnsynced(path string, r io.Reader) error {
	return placeFrom(path, func(f *os.File) error {
		_, err := io.Copy(f, r)
		return err
	}, 0o600, os.Rename, false)
}

// placeFrom is place with the temporary file written by fill.
func placeFrom(path string, fill func(*os.File) error, mode os.FileMode, put func(tmp, path string) error, sync bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*"+TempSuffix)
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if mode != 0o600 {
		if err := f.Chmod(mode); err != nil {
			return err
		}
	}
	if err := fill(f); err != nil {
		return err
	}
	if sync {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := put(tmp, path); err != nil {
		return err
	}
	ok = true
	if !sync {
		return nil
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
