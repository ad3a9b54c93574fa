package session

import (
	"context"
	"errors"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/secrets"
)

// Keyring is the profiles' keys as the window's dialogs may touch them:
// read, keep or forget one, and whether the system keyring works. The
// dialogs reach it through the Session (Keys) and never hold the
// keyring itself, so there is one place where a key moves.
type Keyring struct {
	keys *secrets.Keys
	// err is why the keyring failed, once it has; failed tells the
	// window (the Session's observer).
	err    error
	failed func(error)
}

// Keys are the profiles' keys.
func (s *Session) Keys() *Keyring { return s.keyring }

// Stored is profile id's key as the keyring (or the session's memory)
// holds it, "" when there is none.
func (s *Keyring) Stored(ctx context.Context, id string) (string, error) {
	key, err := s.keys.Get(ctx, id)
	if errors.Is(err, secrets.ErrNoKey) {
		return "", nil
	}
	return key, err
}

// State says where profile id's key is kept: the keyring, this
// session's memory, or nowhere.
func (s *Keyring) State(ctx context.Context, id string) secrets.State {
	return s.keys.State(ctx, id)
}

// Save puts profile id's key in the system keyring.
func (s *Keyring) Save(ctx context.Context, id, key string) error {
	return s.keys.Set(ctx, id, key)
}

// KeepForSession keeps profile id's key in memory until Easel quits,
// for a keyring that cannot be used.
func (s *Keyring) KeepForSession(id, key string) { s.keys.KeepForSession(id, key) }

// SaveGroups keeps the keys of a profile's account groups (set, by
// keyring account "id/group") and forgets those of groups removed (drop);
// it tries them all and returns the first failure.
func (s *Keyring) SaveGroups(ctx context.Context, set map[string]string, drop []string) error {
	var first error
	for account, key := range set {
		if err := s.keys.Set(ctx, account, key); err != nil && first == nil {
			first = err
		}
	}
	for _, account := range drop {
		if err := s.keys.Delete(ctx, account); err != nil && !errors.Is(err, secrets.ErrNoKey) && first == nil {
			first = err
		}
	}
	return first
}

// OtherGroupListing looks for another of p's account groups whose key
// lists model (GroupListing), with the session's keys.
func (s *Keyring) OtherGroupListing(ctx context.Context, p config.Profile, model string) (group string, client *api.Client, ok bool) {
	return GroupListing(ctx, s.keys, p, model)
}

// Err is why the keyring failed, or nil while it works.
func (s *Keyring) Err() error { return s.err }

// Failed records that keys cannot be kept in the keyring (a read or a
// save failed) and tells the window.
func (s *Keyring) Failed(err error) {
	s.err = err
	s.failed(err)
}
