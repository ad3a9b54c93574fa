//go:build keyring

package cli

import (
	"testing"

	"easel/internal/secrets"
	"easel/internal/secrets/storetest"
)

// TestKeyringCLI saves a key with `easel key set` into the real Secret
// system store and reads it back as another program would; `profile remove` deletes it.
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
	if got, ok := storetest.Lookup(secrets.Service, id); !ok || got != key {
		t.Fatalf("the system store holds %q (found %v)", got, ok)
	}
	if code := run(t, env, "", "profile", "remove", "Keyring CLI"); code != 0 {
		t.Fatal(errOut)
	}
	if got, ok := storetest.Lookup(secrets.Service, id); ok {
		t.Fatalf("the key outlived its profile: %q", got)
	}
}
