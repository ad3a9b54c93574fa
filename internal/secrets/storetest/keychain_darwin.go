package storetest

import (
	"os/exec"
	"strings"
)

// Lookup is the secret saved under service and user in the login
// Keychain, read with Apple's security tool, and whether there is one.
func Lookup(service, user string) (string, bool) {
	out, err := exec.Command("/usr/bin/security", "find-generic-password", "-s", service, "-a", user, "-w").Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// Store saves secret under service and user with the security tool.
func Store(service, user, secret string) error {
	return exec.Command("/usr/bin/security", "add-generic-password", "-U", "-s", service, "-a", user, "-w", secret).Run()
}
