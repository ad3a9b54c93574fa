package cli

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/config"
	"easel/internal/fakeapi"
	"easel/internal/secrets"
)

// Through a gateway that ignores stream: the first `easel gen` says so
// on stderr; the second, for the same profile and model, does not ask for
// a stream (the profile's default asks for one) and says why; --stream
// given explicitly asks anyway.
func TestGenRemembersAServiceThatIgnoresStreaming(t *testing.T) {
	const key = "sk-gateway-cli-0123456789"
	ts := httptest.NewServer(fakeapi.New(fakeapi.Config{Key: key, Quirks: []fakeapi.Quirk{fakeapi.QuirkNoImageStream}}))
	defer ts.Close()
	env, _, errOut := profileEnv(t, secrets.NewMemory())
	env.Library = filepath.Join(t.TempDir(), "library")
	if code := run(t, env, "", "profile", "add", "--name", "Gateway", "--base-url", ts.URL+"/v1"); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	if code := run(t, env, key+"\n", "key", "set"); code != 0 {
		t.Fatalf("key: %s", errOut)
	}
	on := true
	if _, err := env.Profiles.Update(func(f *config.File) error { f.Profiles[0].Image.Stream = &on; return nil }); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--partial-images", "2", "--out", out); code != 0 {
		t.Fatalf("first gen: %s", errOut)
	}
	if !strings.Contains(errOut.String(), "the service sent the whole answer at once (no previews)") {
		t.Errorf("first gen's stderr: %q", errOut)
	}
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--out", out); code != 0 {
		t.Fatalf("second gen: %s", errOut)
	}
	second := errOut.String()
	if !strings.Contains(second, "not asking for a stream") || !strings.Contains(second, "answered stream requests without streaming") {
		t.Errorf("second gen's stderr: %q", second)
	}
	if strings.Contains(second, "no previews)") {
		t.Errorf("the second gen asked for a stream again: %q", second)
	}
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--stream", "--out", out); code != 0 {
		t.Fatalf("explicit --stream: %s", errOut)
	}
	if s := errOut.String(); !strings.Contains(s, "asking for a stream as --stream says") || !strings.Contains(s, "(no previews)") {
		t.Errorf("explicit --stream's stderr: %q", s)
	}
}

// A chat reply a gateway closed with [DONE] after its upstream broke is
// printed as far as it came, then reported as possibly cut: exit 1.
func TestChatCutByAGatewayExitsOne(t *testing.T) {
	ts := httptest.NewServer(fakeapi.New(fakeapi.Config{Quirks: []fakeapi.Quirk{fakeapi.QuirkCutChat}}))
	defer ts.Close()
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	if code := Run([]string{"chat", "three looks for a poster"}, env); code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", code, errOut)
	}
	if !strings.Contains(out.String(), "Demo reply") || !strings.Contains(errOut.String(), "may be cut off") {
		t.Errorf("stdout %q\nstderr %q", out, errOut)
	}
}

// Each gateway quirk serve-demo --gateway takes is named in its help, and
// an unknown one is a usage error.
func TestServeDemoGatewayNames(t *testing.T) {
	env, _, errOut := testEnv(t, "")
	if code := Run([]string{"serve-demo", "--gateway", "nope"}, env); code != 2 || !strings.Contains(errOut.String(), "new-api") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}
