package session

import (
	"context"
	"errors"
	"slices"
	"time"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/secrets"
)

// groupLookupTimeout bounds asking each group's key for its model list.
const groupLookupTimeout = 10 * time.Second

// GroupListing finds another of p's groups whose key the gateway lists
// model for, after a "no channel for model X under group G" answer: a
// gateway's models depend on the key's account group, and the user may
// hold a key of the group that has it. It asks each other group's model
// list in turn (keys from the keyring, never shown) and returns the first
// group that lists model, with a client on its key; ok is false when none
// does. It blocks: call it off the UI goroutine.
func GroupListing(ctx context.Context, keys *secrets.Keys, p config.Profile, model string) (group string, client *api.Client, ok bool) {
	using := p.UsingGroup()
	for _, g := range p.KeyGroups() {
		if g == using || len(p.Groups) == 0 {
			continue
		}
		key, err := keys.Get(ctx, p.KeyAccount(g))
		if err != nil && !errors.Is(err, secrets.ErrNoKey) {
			continue
		}
		c := api.New(p.ClientConfig(key))
		lctx, cancel := context.WithTimeout(ctx, groupLookupTimeout)
		ms, err := c.Models(lctx)
		cancel()
		if err == nil && slices.Contains(api.ModelIDs(ms), model) {
			return g, c, true
		}
	}
	return "", nil, false
}
