// Command easel-console is Easel's command line on Windows, shipped as
// easel.com beside Easel.exe. Easel.exe is a windowed program (linked
// with -H=windowsgui, so no console flashes up when it opens from the
// Start menu), and Windows gives such a program no console: started
// from cmd.exe or PowerShell it would print nothing, and the shell would
// not wait for its exit status. Typing `easel gen …` finds easel.com
// first (PATHEXT puts .COM before .EXE), a console program that runs
// Easel.exe with the same arguments, passes its output through pipes and
// its input as it is, and exits with its status. See docs/decisions.md.
//
// It is plain Go and builds everywhere; only the Windows release ships it.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
)

// guiName is the windowed program beside this one.
const guiName = "Easel.exe"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run starts the windowed program beside this executable with args and
// returns its exit status; 1 with a sentence on stderr when it cannot.
func run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "easel: cannot find where this program is:", err)
		return 1
	}
	gui := filepath.Join(filepath.Dir(self), guiName)
	cmd := exec.Command(gui, args...)
	// The input is handed on as it is (a key piped in, or the console);
	// the output goes through pipes this program copies, as a windowed
	// program cannot write to a console it is not attached to.
	cmd.Stdin = stdin
	cmd.Stdout = struct{ io.Writer }{stdout}
	cmd.Stderr = struct{ io.Writer }{stderr}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "easel: cannot start %s: %v\n", gui, err)
		return 1
	}
	// Ctrl+C reaches the console's programs, which the windowed one is
	// not: end it too, as the user meant.
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	defer signal.Stop(interrupt)
	go func() {
		if _, ok := <-interrupt; ok {
			_ = cmd.Process.Kill()
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	fmt.Fprintln(stderr, "easel:", err)
	return 1
}
