//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// serveDemo starts `easel serve-demo` on a free loopback port and returns
// its base URL.
func serveDemo(t *testing.T, bin string) string {
	t.Helper()
	return serveDemoWith(t, bin, "--key", "sk-e2e-demo-key-000111")
}

// serveDemoWith is serveDemo with flags of its own (a gateway's quirks,
// no key).
func serveDemoWith(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve-demo", "--addr", "127.0.0.1:0", "--pace", "20ms"}, args...)...)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
	}()
	select {
	case line := <-lines:
		base := regexp.MustCompile(`http://127\.0\.0\.1:\d+/v1`).FindString(line)
		if base == "" {
			t.Fatalf("serve-demo said %q", line)
		}
		return base
	case <-time.After(10 * time.Second):
		t.Fatal("serve-demo printed no address")
		return ""
	}
}

// easel runs one CLI command and returns stdout, stderr and the exit code.
func easel(t *testing.T, bin, base, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OPENAI_BASE_URL="+base, "OPENAI_API_KEY=sk-e2e-demo-key-000111", "LANG=C")
	return runCommand(t, cmd)
}

// runCommand runs cmd and returns its stdout, stderr and exit code; a
// command that cannot start fails the test.
func runCommand(t *testing.T, cmd *exec.Cmd) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func TestCommandLineAgainstServeDemo(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	base := serveDemo(t, bin)
	dir := t.TempDir()

	out, errOut, code := easel(t, bin, base, dir, "models")
	if code != 0 || !strings.Contains(out, "gpt-image-1\timage-generation") {
		t.Fatalf("models: %d %q %q", code, out, errOut)
	}

	out, errOut, code = easel(t, bin, base, dir, "gen", "--prompt", "a lighthouse", "--size", "1536x1024",
		"--stream", "--partial-images", "2", "--format", "webp", "--compression", "80", "--out", "imgs")
	if code != 0 {
		t.Fatalf("gen: %d %q", code, errOut)
	}
	paths := strings.Fields(out)
	if len(paths) != 1 || !strings.HasSuffix(paths[0], ".webp") {
		t.Fatalf("gen printed %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, paths[0])); err != nil {
		t.Fatalf("gen's file: %v", err)
	}
	if strings.Count(errOut, "preview") != 2 {
		t.Errorf("gen progress %q", errOut)
	}

	out, errOut, code = easel(t, bin, base, dir, "edit", "--image", paths[0], "--image", paths[0], "--prompt", "night", "--fidelity", "low", "--out", "imgs")
	if code != 0 || len(strings.Fields(out)) != 1 {
		t.Fatalf("edit: %d %q %q", code, out, errOut)
	}

	out, _, code = easel(t, bin, base, dir, "chat", "--no-stream", "--max-tokens", "5", "hi")
	if code != 0 || !strings.Contains(out, "Demo reply") {
		t.Fatalf("chat: %d %q", code, out)
	}

	_, errOut, code = easel(t, bin, base, dir, "gen", "--prompt", "x", "--model", "fault-rate-limit")
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "rate limited") {
		t.Errorf("fault: exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(errOut, "sk-e2e-demo") {
		t.Errorf("key in stderr: %q", errOut)
	}
	_, _, code = easel(t, bin, base, dir, "gen", "--size")
	if code != 2 {
		t.Errorf("usage mistake exit %d, want 2", code)
	}
}
