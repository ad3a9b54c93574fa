package session

import (
	"context"
	"errors"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/secrets"
)

// ClientFor hands done (on the window's goroutine) a client of p for
// requests beside the connected profile's — the comparison board across
// profiles — without connecting to it: the connected profile's own
// client, the demo's when this session started it, the environment's
// with its key, or a stored profile's with its key read from the
// keyring off the window's goroutine. A key that would cross plain http
// to another machine is not sent: the profile must be connected once,
// and agreed to, first.
func (s *Session) ClientFor(p config.Profile, done func(*api.Client, error)) {
	switch {
	case p.ID == s.current.ID && s.client != nil:
		done(s.client, nil)
	case p.ID == config.DemoID:
		if s.demoURL == "" {
			done(nil, errors.New(catalogue.T("the demo service has not been started: open it once from File first")))
			return
		}
		done(api.New(DemoProfile(s.demoURL).ClientConfig("")), nil)
	case p.ID == config.EnvironmentID:
		_, key, _ := config.Environment(s.opts.Getenv)
		s.clientWithKey(p, key, done)
	default:
		s.goBackground(func() {
			key, err := s.keys.Get(context.Background(), p.ActiveAccount())
			s.post(func() {
				if err != nil && !errors.Is(err, secrets.ErrNoKey) {
					done(nil, err)
					return
				}
				s.clientWithKey(p, key, done)
			})
		})
	}
}

func (s *Session) clientWithKey(p config.Profile, key string, done func(*api.Client, error)) {
	if s.NeedsConsent(p, key) {
		done(nil, errors.New(catalogue.F("the key of %q would cross plain http to another machine: connect to the profile once and agree first", p.Name)))
		return
	}
	done(api.New(p.ClientConfig(key)), nil)
}
