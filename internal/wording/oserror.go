package wording

import (
	"errors"
	"io/fs"

	"easel/internal/catalogue"
)

// Problem is what went wrong with a file or a disk, named the same on
// every platform: Linux says ENOSPC and Windows ERROR_DISK_FULL for one
// thing a designer can act on, and the sentence must not depend on which.
type Problem int

// The problems Easel words itself; anything else keeps the system's text.
const (
	Unknown Problem = iota
	// DiskFull: no room left, or the user's quota is used up.
	DiskFull
	// ReadOnly: the disk or drive takes no writes at all.
	ReadOnly
	// NotAllowed: this user may not read or write there.
	NotAllowed
	// InUse: another program holds the file (Windows locks open files).
	InUse
	// DriveMissing: the drive or network share is not there now.
	DriveMissing
	// NotFound: no file or folder of that name.
	NotFound
)

// String is the problem as a clause a sentence can end with.
func (p Problem) String() string {
	switch p {
	case DiskFull:
		return catalogue.T("the disk is full")
	case ReadOnly:
		return catalogue.T("the disk is read-only")
	case NotAllowed:
		return catalogue.T("permission denied")
	case InUse:
		return catalogue.T("another program is using the file")
	case DriveMissing:
		return catalogue.T("the drive is not connected")
	case NotFound:
		return catalogue.T("no such file or folder")
	}
	return catalogue.T("an unknown problem")
}

// Classify names the problem behind err by the system's error code (never
// its text), Unknown when it is none of Problem's.
func Classify(err error) Problem {
	if err == nil {
		return Unknown
	}
	if p := platformProblem(err); p != Unknown {
		return p
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		return NotAllowed
	case errors.Is(err, fs.ErrNotExist):
		return NotFound
	}
	return Unknown
}
