package wording

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// platformProblem reads a Windows error code. Windows differs from POSIX
// in two ways that matter here: an open file is locked against others
// (ERROR_SHARING_VIOLATION, which POSIX never says), and a folder on a
// drive that is not there (an unplugged USB disk, a network share away)
// has its own codes rather than "no such file".
func platformProblem(err error) Problem {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return Unknown
	}
	switch errno {
	case windows.ERROR_DISK_FULL, windows.ERROR_HANDLE_DISK_FULL, windows.ERROR_DISK_QUOTA_EXCEEDED:
		return DiskFull
	case windows.ERROR_WRITE_PROTECT:
		return ReadOnly
	case windows.ERROR_ACCESS_DENIED, windows.ERROR_PRIVILEGE_NOT_HELD:
		return NotAllowed
	case windows.ERROR_SHARING_VIOLATION, windows.ERROR_LOCK_VIOLATION, windows.ERROR_USER_MAPPED_FILE:
		return InUse
	case windows.ERROR_NOT_READY, windows.ERROR_INVALID_DRIVE, windows.ERROR_DEV_NOT_EXIST,
		windows.ERROR_BAD_NETPATH, windows.ERROR_BAD_NET_NAME, windows.ERROR_UNRECOGNIZED_VOLUME:
		return DriveMissing
	case windows.ERROR_FILE_NOT_FOUND, windows.ERROR_PATH_NOT_FOUND:
		return NotFound
	}
	return Unknown
}
