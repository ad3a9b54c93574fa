package storetest

import "github.com/danieljoos/wincred"

// target is the Credential Manager's name for a secret of service and
// user: go-keyring's, "service:user", so a user sees "Easel:<profile>"
// in Control Panel > Credential Manager.
func target(service, user string) string { return service + ":" + user }

// Lookup is the generic credential saved under service and user in the
// Windows Credential Manager, and whether there is one.
func Lookup(service, user string) (string, bool) {
	c, err := wincred.GetGenericCredential(target(service, user))
	if err != nil {
		return "", false
	}
	return string(c.CredentialBlob), true
}

// Store saves secret as a generic credential of service and user.
func Store(service, user, secret string) error {
	c := wincred.NewGenericCredential(target(service, user))
	c.UserName = user
	c.CredentialBlob = []byte(secret)
	return c.Write()
}
