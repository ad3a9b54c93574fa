package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// easel help (and --help, which main turns into it) lists every command
// with its line; easel version names the build.
func TestHelpListsEveryCommand(t *testing.T) {
	env, out, _ := testEnv(t, "http://127.0.0.1:1/v1")
	if code := Run([]string{"help"}, env); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, c := range Commands {
		if !strings.Contains(out.String(), "  "+c+" ") || summary(c) == "" {
			t.Errorf("help does not list %s with a line:\n%s", c, out)
		}
	}
	out.Reset()
	if code := Run([]string{"version"}, env); code != 0 || !strings.HasPrefix(out.String(), "Easel ") || !strings.Contains(out.String(), "Fyne") {
		t.Errorf("version: %q", out)
	}
	// commands made of actions say them when asked, not "unknown action"
	for _, args := range [][]string{{"profile", "--help"}, {"key", "-h"}, {"profile", "help"}} {
		out.Reset()
		if code := Run(args, env); code != 0 || !strings.HasPrefix(out.String(), "usage: easel "+args[0]) {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
}

// The bash completion is sourced by bash without errors and completes
// `easel ge` to `easel gen`.
func TestBashCompletesACommand(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	env, out, _ := testEnv(t, "http://127.0.0.1:1/v1")
	if code := Run([]string{"completion", "bash"}, env); code != 0 {
		t.Fatalf("exit %d", code)
	}
	script := filepath.Join(t.TempDir(), "easel.bash")
	if err := os.WriteFile(script, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "--norc", "-c", `set -e; source "$0"; COMP_WORDS=(easel ge); COMP_CWORD=1; _easel; echo "${COMPREPLY[*]}"`, script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil || stderr.Len() > 0 || strings.TrimSpace(string(got)) != "gen" {
		t.Errorf("completed %q (%v): %s", got, err, stderr.String())
	}
	for _, shell := range []string{"zsh", "fish", "powershell"} {
		out.Reset()
		if code := Run([]string{"completion", shell}, env); code != 0 || !strings.Contains(out.String(), "outpaint") {
			t.Errorf("%s: exit %d: %s", shell, code, out)
		}
	}
}

// --log-level before the command sets the log's level for that run and
// is taken off the arguments; after the command it is the command's.
func TestALeadingLogLevelIsTaken(t *testing.T) {
	for _, c := range []struct {
		args  []string
		level string
		rest  string
	}{
		{[]string{"--log-level", "debug", "gen", "--prompt", "x"}, "debug", "gen --prompt x"},
		{[]string{"--log-level=info", "--demo"}, "info", "--demo"},
		{[]string{"--demo", "-log-level", "error", "a.png"}, "error", "--demo a.png"},
		{[]string{"gen", "--log-level", "debug"}, "warn", "gen --log-level debug"},
		{nil, "warn", ""},
	} {
		level, rest := TakeLogLevel(c.args, "warn")
		if level != c.level || strings.Join(rest, " ") != c.rest {
			t.Errorf("%q: %q %q", c.args, level, rest)
		}
	}
}
