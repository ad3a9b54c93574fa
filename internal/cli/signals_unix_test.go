//go:build unix

package cli

import (
	"os"
	"syscall"
)

// killSignals are the ways a test ends a command line process: SIGTERM,
// which it handles, and the kill, which it cannot.
var killSignals = []os.Signal{syscall.SIGTERM, os.Kill}
