//go:build windows

package quarantine

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// confineSelf does nothing on Windows: a process cannot put limits on
// itself there; the parent puts the child in a job object (confine).
func confineSelf() {}

// confine puts the child in a job object of its own, with a limit on
// the memory it may commit and on its processor time, and killed with
// the job when the parent lets go of it.
func confine(p *os.Process) (release func(), err error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return func() {}, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags:              windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY | windows.JOB_OBJECT_LIMIT_PROCESS_TIME | windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
			PerProcessUserTimeLimit: CPULimit.Nanoseconds() / 100,
		},
		ProcessMemoryLimit: MemoryLimit,
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return func() {}, err
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return func() {}, err
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		_ = windows.CloseHandle(job)
		return func() {}, err
	}
	return func() { _ = windows.CloseHandle(job) }, nil
}
