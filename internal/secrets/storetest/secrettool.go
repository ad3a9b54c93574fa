//go:build unix && !darwin

package storetest

import (
	"os/exec"
	"strings"
)

// Lookup is the secret saved under service and user in the Secret
// Service, read with secret-tool (libsecret-tools), and whether there is one.
func Lookup(service, user string) (string, bool) {
	out, err := exec.Command("secret-tool", "lookup", "service", service, "username", user).Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// Store saves secret under service and user with secret-tool.
func Store(service, user, secret string) error {
	cmd := exec.Command("secret-tool", "store", "--label=test", "service", service, "username", user)
	cmd.Stdin = strings.NewReader(secret)
	return cmd.Run()
}
