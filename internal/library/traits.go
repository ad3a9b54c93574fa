package library

import (
	"context"
	"database/sql"
	"easel/internal/catalogue"
	"fmt"
	"time"

	"easel/internal/honesty"
)

// Trait is what a service has shown about one thing a request can ask,
// for one profile and model (see honesty.Known). The window and the
// command line shape the next request by it (no stream where streams
// were ignored) and Settings lists it with a Forget.
type Trait struct {
	Profile, Model string
	honesty.Known
}

// Learn records what one answer showed for profile and model. A check
// that agrees with what is remembered adds to its count; one that
// disagrees replaces it, counting from one: services change.
func (l *Library) Learn(ctx context.Context, profile, model string, checks []honesty.Check, at time.Time) error {
	if len(checks) == 0 || l.saveErr != nil {
		return nil
	}
	ms := at.UnixMilli()
	return l.inTx(ctx, func(tx *sql.Tx) error {
		for _, c := range checks {
			if c.Trait == honesty.Prompt && c.Honoured {
				continue
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO service_traits (profile, model, trait, honoured, times, first_ms, last_ms, asked, got)
				VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)
				ON CONFLICT (profile, model, trait) DO UPDATE SET
					times    = CASE WHEN honoured = excluded.honoured THEN times + 1 ELSE 1 END,
					first_ms = CASE WHEN honoured = excluded.honoured THEN first_ms ELSE excluded.first_ms END,
					honoured = excluded.honoured, last_ms = excluded.last_ms, asked = excluded.asked, got = excluded.got`,
				profile, model, string(c.Trait), c.Honoured, ms, ms, c.Asked, c.Got)
			if err != nil {
				return fmt.Errorf(catalogue.T("library: cannot remember what the service did: %w"), err)
			}
		}
		return nil
	})
}

// Traits is what is remembered for profile: every model when model is
// "", else that model's, ordered by model and trait.
func (l *Library) Traits(ctx context.Context, profile, model string) ([]Trait, error) {
	q := `SELECT profile, model, trait, honoured, times, first_ms, last_ms, asked, got FROM service_traits WHERE profile = ?`
	args := []any{profile}
	if model != "" {
		q += ` AND model = ?`
		args = append(args, model)
	}
	rows, err := l.db.QueryContext(ctx, q+` ORDER BY model, trait`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Trait
	for rows.Next() {
		var t Trait
		var trait string
		var first, last int64
		if err := rows.Scan(&t.Profile, &t.Model, &trait, &t.Honoured, &t.Times, &first, &last, &t.Asked, &t.Got); err != nil {
			return nil, err
		}
		t.Trait, t.First, t.Last = honesty.Trait(trait), time.UnixMilli(first), time.UnixMilli(last)
		out = append(out, t)
	}
	return out, rows.Err()
}

// Forget drops what is remembered for profile: one model's, or every
// model's when model is "". The next answers are learnt afresh.
func (l *Library) Forget(ctx context.Context, profile, model string) error {
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

// Known is what is remembered for profile and model, as honesty.Advise
// takes it.
func (l *Library) Known(ctx context.Context, profile, model string) ([]honesty.Known, error) {
	ts, err := l.Traits(ctx, profile, model)
	if err != nil || model == "" {
		return nil, err
	}
	out := make([]honesty.Known, len(ts))
	for i, t := range ts {
		out[i] = t.Known
	}
	return out, nil
}
