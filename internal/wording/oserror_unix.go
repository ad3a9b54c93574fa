//go:build unix

package wording

import (
	"errors"
	"syscall"
)

// platformProblem reads the errno of a POSIX system: the codes below are
// the ones a gallery, an export or an input file meets.
func platformProblem(err error) Problem {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return Unknown
	}
	switch errno {
	case syscall.ENOSPC, syscall.EDQUOT:
		return DiskFull
	case syscall.EROFS:
		return ReadOnly
	case syscall.EACCES, syscall.EPERM:
		return NotAllowed
	case syscall.ETXTBSY, syscall.EBUSY:
		return InUse
	case syscall.ENXIO, syscall.ENODEV:
		return DriveMissing
	case syscall.ENOENT:
		return NotFound
	}
	return Unknown
}
