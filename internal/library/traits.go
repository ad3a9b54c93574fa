package library

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"easel/internal/catalogue"
	"easel/internal/honesty"
)

// Trait is what a service has shown about one thing a request can ask,
// for one key of a profile, one model and one endpoint (see
// honesty.Known). The window and the command line shape the next request
// by it (no stream where streams were ignored) and Settings lists it with
// a Forget.
type Trait struct {
	ServiceKey
	honesty.Known
}

// ServiceKey is what a trait is remembered for: a gateway serves each
// account group through its own channels, and generations and edits
// through different code, so a key of a relay group that forces one image
// says nothing of a default group's key.
type ServiceKey struct {
	Profile string
	// Group is the account group of the key the request went on ("" for
	// the profile's own unlabelled key); AnyKey for traits learnt before
	// keys were told apart.
	Group string
	Model string
	// Endpoint is EndpointGenerate or EndpointEdit; AnyKey for traits
	// learnt before endpoints were told apart.
	Endpoint string
}

// The endpoints a trait is learnt on, and the wildcard of traits learnt
// before keys and endpoints were told apart (schema 10).
const (
	EndpointGenerate = "generations"
	EndpointEdit     = "edits"
	AnyKey           = "*"
)

// KeyFor is the key of a request of profile's key of group to model, an
// edit or a generation.
func KeyFor(profile, group, model string, edit bool) ServiceKey {
	k := ServiceKey{Profile: profile, Group: group, Model: model, Endpoint: EndpointGenerate}
	if edit {
		k.Endpoint = EndpointEdit
	}
	return k
}

// Memory is what Easel has learnt of each service, per profile, key
// group and model: what its answers showed it honours (service_traits),
// and the models it served. A store of its own in the gallery's
// database; get it with Library.Memory.
type Memory struct {
	db *sql.DB
	// saveErr is why nothing may be written now (the gallery's own
	// reason: read-only, or its images folder gone); nil when it may.
	saveErr func() error
}

// Learn records what one answer showed for k. A check that agrees with
// what is remembered adds to its count; one that disagrees replaces it,
// counting from one: services change.
func (l *Memory) Learn(ctx context.Context, k ServiceKey, checks []honesty.Check, at time.Time) error {
	if len(checks) == 0 || l.saveErr() != nil {
		return nil
	}
	ms := at.UnixMilli()
	return inTx(ctx, l.db, func(tx *sql.Tx) error {
		for _, c := range checks {
			if c.Trait == honesty.Prompt && c.Honoured {
				continue
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO service_traits (profile, key_group, model, endpoint, trait, honoured, times, first_ms, last_ms, asked, got)
				VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
				ON CONFLICT (profile, key_group, model, endpoint, trait) DO UPDATE SET
					times    = CASE WHEN honoured = excluded.honoured THEN times + 1 ELSE 1 END,
					first_ms = CASE WHEN honoured = excluded.honoured THEN first_ms ELSE excluded.first_ms END,
					honoured = excluded.honoured, last_ms = excluded.last_ms, asked = excluded.asked, got = excluded.got`,
				k.Profile, k.Group, k.Model, k.Endpoint, string(c.Trait), c.Honoured, ms, ms, c.Asked, c.Got)
			if err != nil {
				return fmt.Errorf(catalogue.T("library: cannot remember what the service did: %w"), err)
			}
		}
		return nil
	})
}

// Traits is what is remembered for profile: every model when model is
// "", else that model's, ordered by model, key, endpoint and trait.
func (l *Memory) Traits(ctx context.Context, profile, model string) ([]Trait, error) {
	q := `SELECT profile, key_group, model, endpoint, trait, honoured, times, first_ms, last_ms, asked, got FROM service_traits WHERE profile = ?`
	args := []any{profile}
	if model != "" {
		q += ` AND model = ?`
		args = append(args, model)
	}
	rows, err := l.db.QueryContext(ctx, q+` ORDER BY model, key_group, endpoint, trait`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Trait
	for rows.Next() {
		var t Trait
		var trait string
		var first, last int64
		if err := rows.Scan(&t.Profile, &t.Group, &t.Model, &t.Endpoint, &trait, &t.Honoured, &t.Times, &first, &last, &t.Asked, &t.Got); err != nil {
			return nil, err
		}
		t.Trait, t.First, t.Last = honesty.Trait(trait), time.UnixMilli(first), time.UnixMilli(last)
		out = append(out, t)
	}
	return out, rows.Err()
}

// Forget drops what is remembered for profile: one model's, or every
// model's when model is "". The next answers are learnt afresh.
func (l *Memory) Forget(ctx context.Context, profile, model string) error {
	q, args := `DELETE FROM service_traits WHERE profile = ?`, []any{profile}
	if model != "" {
		q += ` AND model = ?`
		args = append(args, model)
	}
	if _, err := l.db.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf(catalogue.T("library: cannot forget what the service did: %w"), err)
	}
	return nil
}

// Known is what is remembered for k, as honesty.Advise takes it: what
// its own key and endpoint learnt, and for the traits they have not, what
// was learnt before keys and endpoints were told apart.
func (l *Memory) Known(ctx context.Context, k ServiceKey) ([]honesty.Known, error) {
	if k.Model == "" {
		return nil, nil
	}
	ts, err := l.Traits(ctx, k.Profile, k.Model)
	if err != nil {
		return nil, err
	}
	best := map[honesty.Trait]Trait{}
	for _, t := range ts {
		if (t.Group != k.Group && t.Group != AnyKey) || (t.Endpoint != k.Endpoint && t.Endpoint != AnyKey) {
			continue
		}
		if have, ok := best[t.Trait]; ok && specificity(have.ServiceKey) >= specificity(t.ServiceKey) {
			continue
		}
		best[t.Trait] = t
	}
	out := make([]honesty.Known, 0, len(best))
	for _, t := range ts { // in the library's order
		if b, ok := best[t.Trait]; ok && b.ServiceKey == t.ServiceKey {
			out = append(out, t.Known)
		}
	}
	return out, nil
}

// ServedModels are the image models that answered requests on profile's
// key of group (trait honesty.Served), by name: a model typed because the
// service does not list it (gateways' lists lag new models) and that
// worked is offered again.
func (l *Memory) ServedModels(ctx context.Context, profile, group string) ([]string, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT DISTINCT model FROM service_traits
		WHERE profile = ? AND (key_group = ? OR key_group = ?) AND trait = ? AND honoured ORDER BY model`,
		profile, group, AnyKey, string(honesty.Served))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// specificity ranks a trait's key: its own key and endpoint over a
// wildcard.
func specificity(k ServiceKey) int {
	n := 0
	if k.Group != AnyKey {
		n += 2
	}
	if k.Endpoint != AnyKey {
		n++
	}
	return n
}
