// Package secretstest holds keyrings for tests: one in memory, and one
// that fails as a desktop without a Secret Service does. They live apart
// from package secrets so that nothing shipped carries them.
package secretstest

import (
	"sync"

	"github.com/zalando/go-keyring"
)

// Memory is a keyring held in memory.
type Memory struct {
	mu sync.Mutex
	m  map[string]string
}

// NewMemory makes an empty in-memory keyring.
func NewMemory() *Memory { return &Memory{m: map[string]string{}} }

// Get implements secrets.Backend.
func (b *Memory) Get(service, user string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[service+"\x00"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

// Set implements secrets.Backend.
func (b *Memory) Set(service, user, password string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[service+"\x00"+user] = password
	return nil
}

// Delete implements secrets.Backend.
func (b *Memory) Delete(service, user string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.m[service+"\x00"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(b.m, service+"\x00"+user)
	return nil
}

// Broken is a keyring that fails every call with Err, as one with no
// Secret Service does; for tests of the unavailable path.
type Broken struct{ Err error }

// Get implements secrets.Backend.
func (b Broken) Get(string, string) (string, error) { return "", b.Err }

// Set implements secrets.Backend.
func (b Broken) Set(string, string, string) error { return b.Err }

// Delete implements secrets.Backend.
func (b Broken) Delete(string, string) error { return b.Err }
