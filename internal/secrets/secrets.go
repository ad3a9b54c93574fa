// Package secrets keeps each profile's API key in the OS keyring (the
// Secret Service on Linux), and nowhere else on disk. A keyring call can
// block for ever (an unlock prompt nobody answers), so every call has a
// deadline; a keyring that fails is reported as unavailable, never as
// "no key", and the caller may keep a key in memory for this session
// instead.
package secrets

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zalando/go-keyring"

	"easel/internal/catalogue"
)

// Service is the keyring service name every key is filed under; the
// keyring user is the profile id.
const Service = "Easel"

// DefaultTimeout bounds one keyring call. A healthy Secret Service answers
// in milliseconds; a locked one may wait for a prompt that never comes.
const DefaultTimeout = 5 * time.Second

// ErrNoKey means the keyring works and holds no key for the profile.
var ErrNoKey = errors.New("no key is saved for this profile")

// UnavailableError means the keyring could not be used: no Secret
// Service, a locked collection, a time-out. It never carries the key.
type UnavailableError struct {
	// Op is what was tried: "read", "save" or "delete".
	Op string
	// Cause is the keyring's own error (D-Bus, time-out).
	Cause error
}

func (e *UnavailableError) Error() string {
	return catalogue.F("the system keyring is unavailable (%s failed: %v)", e.Op, e.Cause)
}

func (e *UnavailableError) Unwrap() error { return e.Cause }

// IsUnavailable reports whether err says the keyring cannot be used.
func IsUnavailable(err error) bool {
	var u *UnavailableError
	return errors.As(err, &u)
}

// Backend is a keyring: go-keyring's calls, so tests can put a map or a
// broken keyring in its place without swapping go-keyring's global.
type Backend interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// OSKeyring is the system keyring through go-keyring. On Linux and the
// BSDs it needs a D-Bus session bus, and never starts one (see sessionBus).
type OSKeyring struct{}

func (OSKeyring) reachable() error { return keyringReachable() }

// Get implements Backend.
func (o OSKeyring) Get(service, user string) (string, error) {
	if err := o.reachable(); err != nil {
		return "", err
	}
	return keyring.Get(service, user)
}

// Set implements Backend.
func (o OSKeyring) Set(service, user, password string) error {
	if err := o.reachable(); err != nil {
		return err
	}
	return keyring.Set(service, user, password)
}

// Delete implements Backend.
func (o OSKeyring) Delete(service, user string) error {
	if err := o.reachable(); err != nil {
		return err
	}
	return keyring.Delete(service, user)
}

// Keys are the profiles' keys: the keyring first, and keys the user chose
// to keep in memory for this session when the keyring is unavailable.
// Safe for concurrent use; call it off the UI goroutine.
type Keys struct {
	backend Backend
	timeout time.Duration

	mu      sync.Mutex
	session map[string]string
}

// New makes Keys on a keyring backend; timeout 0 uses DefaultTimeout.
func New(backend Backend, timeout time.Duration) *Keys {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Keys{backend: backend, timeout: timeout, session: map[string]string{}}
}

// Get returns the key of a profile: a session key if one is kept, else
// the keyring's. It returns ErrNoKey when the keyring holds none and an
// *UnavailableError when the keyring cannot be read.
func (k *Keys) Get(ctx context.Context, profile string) (string, error) {
	if key, ok := k.SessionKey(profile); ok {
		return key, nil
	}
	var key string
	err := k.call(ctx, "read", func() error {
		var err error
		key, err = k.backend.Get(Service, profile)
		return err
	})
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrNoKey
	}
	return key, err
}

// Set saves a profile's key in the keyring and forgets any session key
// for it. An *UnavailableError leaves nothing saved: offer KeepForSession.
func (k *Keys) Set(ctx context.Context, profile, key string) error {
	if err := k.call(ctx, "save", func() error { return k.backend.Set(Service, profile, key) }); err != nil {
		return err
	}
	k.mu.Lock()
	delete(k.session, profile)
	k.mu.Unlock()
	return nil
}

// Delete removes a profile's key from the keyring and from the session.
// A key that was never saved is not an error.
func (k *Keys) Delete(ctx context.Context, profile string) error {
	k.mu.Lock()
	delete(k.session, profile)
	k.mu.Unlock()
	err := k.call(ctx, "delete", func() error { return k.backend.Delete(Service, profile) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

// KeepForSession holds a key in memory until the process ends, for a
// keyring that is unavailable. It is never written anywhere.
func (k *Keys) KeepForSession(profile, key string) {
	k.mu.Lock()
	k.session[profile] = key
	k.mu.Unlock()
}

// SessionKey is the key kept in memory for a profile, if any.
func (k *Keys) SessionKey(profile string) (string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	key, ok := k.session[profile]
	return key, ok
}

// Check asks the keyring for a key nobody saved, to learn whether it
// works at all: nil when it answers, an *UnavailableError when not.
func (k *Keys) Check(ctx context.Context) error {
	_, err := k.Get(ctx, "easel-keyring-check")
	if errors.Is(err, ErrNoKey) {
		return nil
	}
	return err
}

// call runs one keyring call with the deadline. The call itself cannot be
// interrupted; on a time-out its goroutine finishes on its own, and its
// answer is dropped.
func (k *Keys) call(ctx context.Context, op string, f func() error) error {
	ctx, cancel := context.WithTimeout(ctx, k.timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, keyring.ErrNotFound) {
			return err
		}
		return &UnavailableError{Op: op, Cause: err}
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.Canceled) {
			return ctx.Err()
		}
		return &UnavailableError{Op: op, Cause: fmt.Errorf(catalogue.T("no answer within %s"), k.timeout)}
	}
}

// State is where a profile's key is, as Settings and `easel profile list`
// tell it.
type State int

const (
	// StateNone: no key is saved (fine for a local server).
	StateNone State = iota
	// StateSaved: the keyring holds the key.
	StateSaved
	// StateSession: the key is kept in memory for this session.
	StateSession
	// StateUnavailable: the keyring cannot be read.
	StateUnavailable
)

// State says where a profile's key is, without returning it.
func (k *Keys) State(ctx context.Context, profile string) State {
	if _, ok := k.SessionKey(profile); ok {
		return StateSession
	}
	switch _, err := k.Get(ctx, profile); {
	case err == nil:
		return StateSaved
	case errors.Is(err, ErrNoKey):
		return StateNone
	default:
		return StateUnavailable
	}
}
