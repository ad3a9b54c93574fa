package session

import (
	"context"
	"errors"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/secrets"
)

// The profiles' keys are handled here only: the window's dialogs ask the
// Session to read, keep or forget one, and never hold the keyring
// themselves, so there is one place where a key moves.

// StoredKey is profile id's key as the keyring (or the session's memory)
// holds it, "" when there is none.
func (s *Session) StoredKey(ctx context.Context, id string) (string, error) {
	key, err := s.keys.Get(ctx, id)
	if errors.Is(err, secrets.ErrNoKey) {
		return "", nil
	}
	return key, err
}

// KeyState says where profile id's key is kept: the keyring, this
// session's memory, or nowhere.
func (s *Session) KeyState(ctx context.Context, id string) secrets.State {
	return s.keys.State(ctx, id)
}

// SaveKey puts profile id's key in the system keyring.
func (s *Session) SaveKey(ctx context.Context, id, key string) error {
	return s.keys.Set(ctx, id, key)
}

// KeepKeyForSession keeps profile id's key in memory until Easel quits,
// for a keyring that cannot be used.
func (s *Session) KeepKeyForSession(id, key string) { s.keys.KeepForSession(id, key) }

// SaveGroupKeys keeps the keys of a profile's account groups (set, by
// keyring account "id/group") and forgets those of groups removed (drop);
// it tries them all and returns the first failure.
func (s *Session) SaveGroupKeys(ctx context.Context, set map[string]string, drop []string) error {
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
func (s *Session) OtherGroupListing(ctx context.Context, p config.Profile, model string) (group string, client *api.Client, ok bool) {
	return GroupListing(ctx, s.keys, p, model)
}
