//go:build unix && !darwin

package secrets

import "os"

// keyringReachable says why the keyring cannot be asked, nil when it
// can. On Linux and the BSDs go-keyring talks to the Secret Service over
// the D-Bus session bus, which must already be running (see sessionBus).
func keyringReachable() error { return sessionBus(os.Getenv) }
