//go:build unix

package quarantine

import (
	"os"
	"syscall"
)

// confineSelf limits the child's own address space and processor time:
// past the first, allocations fail (Go then ends the child); past the
// second, the kernel sends SIGXCPU, then SIGKILL.
func confineSelf() {
	if !raceBuild {
		_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: MemoryLimit, Max: MemoryLimit})
	}
	cpu := uint64(CPULimit.Seconds())
	_ = syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: cpu, Max: cpu + 1})
}

// confine has nothing to do in the parent on Unix: the child limits
// itself before it reads the picture (confineSelf).
func confine(*os.Process) (release func(), err error) { return func() {}, nil }
