package wording

import (
	"syscall"

	"golang.org/x/sys/windows"
)

func systemErrors() map[Problem][]syscall.Errno {
	return map[Problem][]syscall.Errno{
		DiskFull:     {windows.ERROR_DISK_FULL, windows.ERROR_HANDLE_DISK_FULL, windows.ERROR_DISK_QUOTA_EXCEEDED},
		ReadOnly:     {windows.ERROR_WRITE_PROTECT},
		NotAllowed:   {windows.ERROR_ACCESS_DENIED},
		InUse:        {windows.ERROR_SHARING_VIOLATION, windows.ERROR_LOCK_VIOLATION},
		DriveMissing: {windows.ERROR_NOT_READY, windows.ERROR_INVALID_DRIVE, windows.ERROR_BAD_NETPATH},
		NotFound:     {windows.ERROR_FILE_NOT_FOUND, windows.ERROR_PATH_NOT_FOUND},
	}
}
