package cli

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
)

// profileEnv is an Env with no OPENAI_* set, a fresh profiles file and an
// in-memory keyring.
func profileEnv(t *testing.T, backend secrets.Backend) (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" },
		Profiles: config.Open(filepath.Join(t.TempDir(), "easel", "profiles.json")), Keys: secrets.New(backend, 0)}, &out, &errOut
}

func run(t *testing.T, env *Env, stdin string, args ...string) int {
	t.Helper()
	env.Stdin = strings.NewReader(stdin)
	env.Stdout.(*bytes.Buffer).Reset()
	env.Stderr.(*bytes.Buffer).Reset()
	return Run(args, *env)
}

func TestProfileLifecycle(t *testing.T) {
	const key = "sk-profile-key-abcdef123456"
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: key}))
	defer ts.Close()
	env, out, errOut := profileEnv(t, secretstest.NewMemory())

	if code := run(t, env, "", "models"); code != 1 || !strings.Contains(errOut.String(), "easel profile add") {
		t.Fatalf("no profile: exit %d, %q; want 1 and how to add one", code, errOut)
	}
	if code := run(t, env, "", "profile", "add", "--name", "Studio", "--base-url", ts.URL+"/v1", "--image-model", "gpt-image-1-mini", "--chat-model", "gpt-4.1"); code != 0 {
		t.Fatalf("add: %d %s", code, errOut)
	}
	if code := run(t, env, "", "profile", "add", "--name", "Local", "--base-url", "http://localhost:11434/v1"); code != 0 {
		t.Fatalf("add Local: %d %s", code, errOut)
	}
	if code := run(t, env, "", "profile", "add", "--name", "studio"); code != 1 || !strings.Contains(errOut.String(), "already exists") {
		t.Fatalf("duplicate name: %d %q", code, errOut)
	}
	// The first profile became active; without its key the service says 401.
	if code := run(t, env, "", "models"); code != 1 || !strings.Contains(errOut.String(), "key") {
		t.Fatalf("no key yet: %d %q", code, errOut)
	}
	if code := run(t, env, key+"\n", "key", "set"); code != 0 {
		t.Fatalf("key set: %d %s", code, errOut)
	}
	if code := run(t, env, "", "models"); code != 0 || !strings.Contains(out.String(), "gpt-image-1") {
		t.Fatalf("models with the saved key: %d %q %q", code, out, errOut)
	}
	dir := t.TempDir()
	if code := run(t, env, "", "gen", "--prompt", "a kite", "--out", dir); code != 0 {
		t.Fatalf("gen: %d %s", code, errOut)
	}
	if code := run(t, env, "", "profile", "list"); code != 0 {
		t.Fatal(errOut)
	}
	list := out.String()
	for _, want := range []string{"* Studio", "key saved", "  Local", "no key"} {
		if !strings.Contains(list, want) {
			t.Errorf("list lacks %q:\n%s", want, list)
		}
	}
	if code := run(t, env, "", "profile", "use", "local"); code != 0 {
		t.Fatal(errOut)
	}
	if f, _ := env.Profiles.Load(); f.Active == "" || mustFind(t, f, "Local").ID != f.Active {
		t.Fatalf("active is %q after use local", f.Active)
	}
	studio := mustFind(t, mustLoad(t, env), "Studio")
	if code := run(t, env, "", "profile", "remove", "Studio"); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := env.Keys.Get(t.Context(), studio.ID); !errors.Is(err, secrets.ErrNoKey) {
		t.Fatalf("the removed profile's key is still there: %v", err)
	}
	if code := run(t, env, "", "profile", "remove", "Studio"); code != 1 {
		t.Fatalf("removing twice: %d", code)
	}
	data, _ := os.ReadFile(env.Profiles.Path())
	if strings.Contains(string(data), key[:8]) || strings.Contains(string(data), "sk-") {
		t.Fatalf("the profiles file holds the key:\n%s", data)
	}
}

func mustLoad(t *testing.T, env *Env) config.File {
	t.Helper()
	f, err := env.Profiles.Load()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustFind(t *testing.T, f config.File, name string) config.Profile {
	t.Helper()
	p, ok := f.Find(name)
	if !ok {
		t.Fatalf("no profile %q in %+v", name, f)
	}
	return p
}

func TestProfileDefaultsPickTheModel(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	defer ts.Close()
	env, out, errOut := profileEnv(t, secretstest.NewMemory())
	run(t, env, "", "profile", "add", "--name", "P", "--base-url", ts.URL+"/v1", "--chat-model", "no-such-chat-model")
	if code := run(t, env, "", "chat", "hello"); code != 1 || !strings.Contains(errOut.String(), "no-such-chat-model") {
		t.Fatalf("chat used the profile's model? %d %q %q", code, out, errOut)
	}
	if code := run(t, env, "", "chat", "--model", "gpt-4.1", "hello"); code != 0 {
		t.Fatalf("--model overrides the profile: %d %q", code, errOut)
	}
}

func TestKeySetRules(t *testing.T) {
	env, _, errOut := profileEnv(t, secretstest.NewMemory())
	if code := run(t, env, "sk-x\n", "key", "set"); code != 1 || !strings.Contains(errOut.String(), "no active profile") {
		t.Fatalf("no profile: %d %q", code, errOut)
	}
	run(t, env, "", "profile", "add", "--name", "P")
	if code := run(t, env, "  \n", "key", "set"); code != 1 || !strings.Contains(errOut.String(), "no key on standard input") {
		t.Fatalf("empty key: %d %q", code, errOut)
	}
	if code := run(t, env, "", "key", "set", "sk-on-the-command-line"); code != 2 {
		t.Fatalf("a key as an argument: exit %d, want 2 (usage)", code)
	}
	if code := run(t, env, "", "key", "set", "--profile", "environment"); code != 1 {
		t.Fatalf("Environment profile: %d", code)
	}
}

func TestUnavailableKeyringSaysSoWithoutTheKey(t *testing.T) {
	const key = "sk-never-shown-7777777777"
	env, _, errOut := profileEnv(t, secretstest.Broken{Err: errors.New("The name org.freedesktop.secrets was not provided by any .service files")})
	run(t, env, "", "profile", "add", "--name", "P")
	if code := run(t, env, key+"\n", "key", "set"); code != 1 {
		t.Fatalf("key set on a broken keyring: %d", code)
	}
	msg := errOut.String()
	if !strings.Contains(msg, "keyring is unavailable") || strings.Contains(msg, key[3:11]) {
		t.Fatalf("message %q: want it to name the keyring and not hold the key", msg)
	}
	if code := run(t, env, "", "models"); code != 1 || !strings.Contains(errOut.String(), "OPENAI_API_KEY") {
		t.Fatalf("models on a broken keyring: %d %q", code, errOut)
	}
}

func TestPlainHTTPNeedsConsent(t *testing.T) {
	env, _, errOut := profileEnv(t, secretstest.NewMemory())
	run(t, env, "", "profile", "add", "--name", "LAN", "--base-url", "http://192.0.2.10:3000/v1")
	run(t, env, "sk-lan-key-00000000\n", "key", "set")
	if code := run(t, env, "", "models"); code != 1 || !strings.Contains(errOut.String(), "unencrypted") {
		t.Fatalf("plain http without consent: %d %q", code, errOut)
	}
	// Consent given for good in the profile: the key may go (the request
	// itself is not made here: 192.0.2.10 is a documentation address).
	if _, err := env.Profiles.Update(func(f *config.File) error {
		p := mustFind(t, *f, "LAN")
		p.PlainHTTPConfirmed = true
		return f.Put(p)
	}); err != nil {
		t.Fatal(err)
	}
	tg := target{}
	if _, key, err := tg.resolve(t.Context(), *env); err != nil || key == "" {
		t.Fatalf("with consent: %q, %v", key, err)
	}
	// A local server with no key never needs consent.
	run(t, env, "", "profile", "add", "--name", "Ollama", "--base-url", "http://127.0.0.1:11434/v1", "--use")
	tg = target{}
	if p, key, err := tg.resolve(t.Context(), *env); err != nil || key != "" || p.Name != "Ollama" {
		t.Fatalf("local, keyless: %+v %q %v", p, key, err)
	}
}

// `easel profile list` on a file with a bad value lists what it can,
// says what it could not use, exits 1, and moves nothing.
func TestProfileListReportsABadFileAndMovesNothing(t *testing.T) {
	env, out, errOut := profileEnv(t, secretstest.NewMemory())
	path := env.Profiles.Path()
	os.MkdirAll(filepath.Dir(path), 0o700)
	content := `{"profiles":[{"id":"w","name":"Work","base_url":"https://gw.example/v1","max_jobs":12}]}`
	os.WriteFile(path, []byte(content), 0o600)
	if code := run(t, env, "", "profile", "list"); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(out.String(), "Work") || !strings.Contains(errOut.String(), "jobs at once 12") {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
	if kept, _ := os.ReadFile(path); string(kept) != content {
		t.Error("listing changed the file")
	}
	if aside, _ := filepath.Glob(path + ".corrupt-*"); len(aside) > 0 {
		t.Errorf("listing moved the file: %v", aside)
	}
}
