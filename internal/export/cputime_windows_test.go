package export

import (
	"time"

	"golang.org/x/sys/windows"
)

// cpuTime is the process's user and system time so far (Windows has no
// getrusage: GetProcessTimes counts in 100 ns ticks).
func cpuTime() time.Duration {
	var creation, exit, kernel, user windows.Filetime
	_ = windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user)
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100
}
