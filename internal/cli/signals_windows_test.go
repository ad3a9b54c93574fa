package cli

import "os"

// killSignals are the ways a test ends a command line process: Windows
// delivers no SIGTERM to a process, only the kill.
var killSignals = []os.Signal{os.Kill}
