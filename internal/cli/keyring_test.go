//go:build keyring

package cli

import (
	"os/exec"
	"strings"
	"testing"

	"easel/internal/secrets"
)

// TestKeyringCLI saves a key with `easel key set` into the real Secret
// Service and reads it back with secret-tool; `profile remove` deletes it.
func TestKeyringCLI(t *testing.T) {
	env, _, errOut := profileEnv(t, secrets.OSKeyring{})
	if code := run(t, env, "", "profile", "add", "--name", "Keyring CLI"); code != 0 {
		t.Fatal(errOut)
	}
	id := mustFind(t, mustLoad(t, env), "Keyring CLI").ID
	const key = "sk-cli-real-keyring-24680"
	if code := run(t, env, key+"\n", "key", "set"); code != 0 {
		t.Fatalf("key set: %s", errOut)
	}
	out, err := exec.Command("secret-tool", "lookup", "service", secrets.Service, "username", id).Output()
	if err != nil || strings.TrimSpace(string(out)) != key {
		t.Fatalf("secret-tool reads %q, %v", out, err)
	}
	if code := run(t, env, "", "profile", "remove", "Keyring CLI"); code != 0 {
		t.Fatal(errOut)
	}
	if out, err := exec.Command("secret-tool", "lookup", "service", secrets.Service, "username", id).Output(); err == nil {
		t.Fatalf("the key outlived its profile: %q", out)
	}
}
