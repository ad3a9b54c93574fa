// Package child starts the helper processes that crash and kill tests
// run. Under Wine, CreateProcess now and then fails with "Internal error"
// before the child exists; that says nothing about the code under test,
// so a start that failed is tried afresh, while a child that started and
// then failed still fails its test.
package child

import (
	"os/exec"
	"testing"
	"time"
)

// tries is how many times a start is attempted before the test fails.
const tries = 3

// Start starts the command newCmd makes. newCmd is called once per try
// because an exec.Cmd whose Start failed has closed its pipes and cannot
// be started again.
func Start(t testing.TB, newCmd func() *exec.Cmd) *exec.Cmd {
	t.Helper()
	var err error
	for try := 1; try <= tries; try++ {
		cmd := newCmd()
		if err = cmd.Start(); err == nil {
			return cmd
		}
		t.Logf("the helper process did not start (try %d of %d): %v", try, tries, err)
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal(err)
	return nil
}
