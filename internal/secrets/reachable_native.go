//go:build darwin || windows

package secrets

// keyringReachable is always nil on macOS and Windows: go-keyring calls
// the system's own store (the login Keychain; the Credential Manager
// through wincred), which needs no session bus and is there whenever the
// user is signed in.
func keyringReachable() error { return nil }
