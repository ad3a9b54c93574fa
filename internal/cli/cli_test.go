package cli

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/internal/testsupport/hostile"
)

func testEnv(t *testing.T, base string) (Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	vars := map[string]string{"OPENAI_BASE_URL": base, "OPENAI_API_KEY": "sk-cli-test-key-123456"}
	return Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return vars[k] },
		Profiles: config.Open(filepath.Join(t.TempDir(), "profiles.json")), Keys: secrets.New(secretstest.NewMemory(), 0)}, &out, &errOut
}

func fake(t *testing.T) string {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"}))
	t.Cleanup(ts.Close)
	return ts.URL + "/v1"
}

func TestGenWritesOnePathPerImage(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	dir := t.TempDir()
	code := Run([]string{"gen", "--prompt", "a fox", "--n", "2", "--format", "jpeg", "--compression", "70", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	paths := strings.Fields(out.String())
	if len(paths) != 2 {
		t.Fatalf("stdout %q", out)
	}
	for _, p := range paths {
		if filepath.Ext(p) != ".jpg" || filepath.Dir(p) != dir {
			t.Errorf("path %s", p)
		}
		if data, err := os.ReadFile(p); err != nil || len(data) < 100 {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestEditSendsImagesInOrder(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	dir := t.TempDir()
	var args []string
	for i, c := range []color.NRGBA{{255, 0, 0, 255}, {0, 0, 255, 255}} {
		img := image.NewNRGBA(image.Rect(0, 0, 32, 32))
		for p := 0; p < len(img.Pix); p += 4 {
			copy(img.Pix[p:], []byte{c.R, c.G, c.B, c.A})
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		p := filepath.Join(dir, []string{"a.png", "b.png"}[i])
		_ = os.WriteFile(p, buf.Bytes(), 0o644)
		args = append(args, "--image", p)
	}
	code := Run(append([]string{"edit", "--prompt", "blend", "--fidelity", "high", "--out", dir}, args...), env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if len(strings.Fields(out.String())) != 1 {
		t.Errorf("stdout %q", out)
	}
}

func TestFailureIsOneLineWithKindAndHint(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	code := Run([]string{"gen", "--prompt", "x", "--model", "fault-no-balance"}, env)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	line := errOut.String()
	if strings.Count(line, "\n") != 1 || !strings.Contains(line, "insufficient balance") || !strings.Contains(line, "top it up") {
		t.Errorf("stderr %q", line)
	}
	if strings.Contains(line, "sk-cli-test-key") || out.Len() != 0 {
		t.Errorf("leaked or printed: %q / %q", line, out)
	}
}

func TestUsageMistakesExit2(t *testing.T) {
	for _, args := range [][]string{
		{"gen", "--bogus"}, {"edit", "--prompt", "x"}, {"chat"}, {"serve-demo", "--addr", "0.0.0.0:1"}, {"nope"},
	} {
		env, _, _ := testEnv(t, "http://127.0.0.1:1/v1")
		if code := Run(args, env); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestChatStreamsToStdout(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	if code := Run([]string{"chat", "--system", "be brief", "--temperature", "0.3", "hello", "world"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out.String(), "hello world") {
		t.Errorf("stdout %q", out)
	}
}

// Runs into one folder in the same second never replace each other's
// files: three runs of n=2 leave six files and print six paths.
func TestGenNeverOverwrites(t *testing.T) {
	base, dir := fake(t), t.TempDir()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var printed []string
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env, out, errOut := testEnv(t, base)
			if code := Run([]string{"gen", "--prompt", "a fox", "--n", "2", "--out", dir}, env); code != 0 {
				t.Errorf("exit %d: %s", code, errOut)
			}
			mu.Lock()
			printed = append(printed, strings.Fields(out.String())...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	entries, _ := os.ReadDir(dir)
	seen := map[string]bool{}
	for _, p := range printed {
		seen[p] = true
	}
	if len(entries) != 6 || len(seen) != 6 {
		t.Errorf("%d files and %d distinct paths printed, want 6 and 6: %v", len(entries), len(seen), printed)
	}
}

// Against a hostile service the command line keeps no more images than
// asked for and says so once, and nothing the service sends reaches the
// terminal as a control sequence: not an error line, not a model name,
// not a chat reply.
func TestAHostileServiceCannotDriveTheTerminal(t *testing.T) {
	const key = "sk-hostile-key-0123456789abcdef"
	ts := httptest.NewServer(hostile.Server{Key: key})
	t.Cleanup(ts.Close)
	run := func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		vars := map[string]string{"OPENAI_BASE_URL": ts.URL + "/v1", "OPENAI_API_KEY": key}
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return vars[k] },
			Profiles: config.Open(filepath.Join(t.TempDir(), "profiles.json")), Keys: secrets.New(secretstest.NewMemory(), 0)}
		code := Run(args, env)
		return out.String(), errOut.String(), code
	}
	terminalSafe := func(what, s string) {
		t.Helper()
		if strings.ContainsAny(s, "\x1b\x07\x08\x00\u202e\u009b\u009d") || strings.Contains(s, key[:12]) {
			t.Errorf("%s reaches the terminal unclean: %q", what, s)
		}
	}
	dir := t.TempDir()
	out, errOut, code := run("gen", "--prompt", "x", "--model", hostile.ManyImages, "--n", "1", "--out", dir)
	if entries, _ := os.ReadDir(dir); code != 0 || len(entries) != 1 || len(strings.Fields(out)) != 1 {
		t.Errorf("gen --n 1 against 200 images: exit %d, %d files, stdout %q", code, len(entries), out)
	}
	if strings.Count(errOut, "were not kept") != 1 {
		t.Errorf("stderr %q does not say once that images were dropped", errOut)
	}
	_, errOut, code = run("gen", "--prompt", "x", "--model", hostile.EndlessPreview, "--stream", "--partial-images", "2", "--out", dir)
	if code != 0 || strings.Count(errOut, "preview") != 3 { // two previews and one notice
		t.Errorf("an endless preview stream: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = run("gen", "--prompt", "x", "--model", hostile.EvilError, "--out", dir)
	terminalSafe("an error line", errOut)
	if code != 1 || !strings.Contains(errOut, "evil") {
		t.Errorf("the error: exit %d, %q", code, errOut)
	}
	out, _, _ = run("models")
	terminalSafe("the model list", out)
	out, errOut, _ = run("chat", "--model", hostile.EvilChat, "hi")
	terminalSafe("a chat reply", out+errOut)
	if !strings.Contains(out, "hello") || !strings.Contains(out, "world") {
		t.Errorf("the reply lost its text: %q", out)
	}
	// Reasoning and no reply: the reasoning on stderr, said as a failure
	// (exit 1), never a silent success with nothing printed.
	out, errOut, code = run("chat", "--model", hostile.ReasoningOnly, "hi")
	if code != 1 || !strings.Contains(errOut, "thinking it over") || !strings.Contains(errOut, "only its reasoning") || strings.Contains(out, "thinking") {
		t.Errorf("a reply of reasoning only: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, _, code := run("chat", "--model", hostile.EmptyChat, "hi"); code != 1 {
		t.Errorf("an empty chat stream exited %d, want 1", code)
	}
}

// A mistyped command is not taken for a file to open: it is named, with
// the nearest command; a file or a path is left to the window.
func TestAnUnknownWordSuggestsTheNearestCommand(t *testing.T) {
	if s, ok := Unknown("gne"); !ok || !strings.Contains(s, `did you mean "gen"`) {
		t.Errorf("gne: %q %v", s, ok)
	}
	if s, ok := Unknown("upscale"); !ok || !strings.Contains(s, "no file of that name") {
		t.Errorf("upscale: %q %v", s, ok)
	}
	for _, arg := range []string{"poster.png", "./room", "-demo"} {
		if _, ok := Unknown(arg); ok {
			t.Errorf("%s was taken for a command", arg)
		}
	}
}
