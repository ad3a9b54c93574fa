//go:build unix

package wording

import "syscall"

func systemErrors() map[Problem][]syscall.Errno {
	return map[Problem][]syscall.Errno{
		DiskFull:     {syscall.ENOSPC, syscall.EDQUOT},
		ReadOnly:     {syscall.EROFS},
		NotAllowed:   {syscall.EACCES, syscall.EPERM},
		InUse:        {syscall.ETXTBSY, syscall.EBUSY},
		DriveMissing: {syscall.ENXIO, syscall.ENODEV},
		NotFound:     {syscall.ENOENT},
	}
}
