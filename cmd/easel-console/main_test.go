package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelperGUI is not a test: it stands in for Easel.exe when the
// companion under test starts it.
func TestHelperGUI(t *testing.T) {
	if os.Getenv("EASEL_CONSOLE_HELPER") == "" {
		t.Skip("helper process for TestTheCompanionPassesArgumentsOutputAndStatus")
	}
	in, _ := io.ReadAll(os.Stdin)
	os.Stdout.WriteString("out:" + strings.Join(os.Args[len(os.Args)-2:], ",") + " in:" + string(in) + "\n")
	os.Stderr.WriteString("a line on stderr\n")
	os.Exit(3)
}

// The companion, built as easel.com beside a stand-in Easel.exe, hands
// on the arguments and the input, passes both outputs through, and exits
// with the windowed program's status.
func TestTheCompanionPassesArgumentsOutputAndStatus(t *testing.T) {
	dir := t.TempDir()
	companion := filepath.Join(dir, "easel.com")
	if out, err := exec.Command("go", "build", "-o", companion, ".").CombinedOutput(); err != nil {
		t.Skipf("cannot build the companion here: %v %s", err, out)
	}
	self, _ := os.Executable()
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, guiName), data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(companion, "-test.run=^TestHelperGUI$", "gen", "--prompt=a cat")
	cmd.Env = append(os.Environ(), "EASEL_CONSOLE_HELPER=1")
	cmd.Stdin = strings.NewReader("sk-from-stdin")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Errorf("exit %d (%v), want 3 as the windowed program's", code, err)
	}
	if got := stdout.String(); !strings.Contains(got, "out:gen,--prompt=a cat in:sk-from-stdin") {
		t.Errorf("stdout %q", got)
	}
	if got := stderr.String(); !strings.Contains(got, "a line on stderr") {
		t.Errorf("stderr %q", got)
	}
}
