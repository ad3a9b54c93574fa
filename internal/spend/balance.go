package spend

import (
	"context"
	"errors"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/pricing"
)

// Asker is what asks a service its balance (api.Client).
type Asker interface {
	Balance(ctx context.Context) (api.Balance, error)
}

// Balance is profile's balance: asked of its service unless the service
// is remembered not to report one, and remembered either way. When the
// service cannot be reached the last balance it reported is returned
// with the error (ok says there is one to show).
func Balance(ctx context.Context, lib *library.Library, profile string, asker Asker, now time.Time) (b library.Balance, ok bool, err error) {
	if lib == nil {
		return library.Balance{}, false, nil
	}
	last, known, err := lib.BalanceOf(ctx, profile)
	if err != nil {
		return library.Balance{}, false, err
	}
	if known && !last.Reported {
		return last, false, nil // not asked again
	}
	if asker == nil {
		return last, known, nil
	}
	got, err := asker.Balance(ctx)
	switch {
	case errors.Is(err, api.ErrNoBalance):
		b = library.Balance{Reported: false, Checked: now}
		return b, false, lib.SetBalance(ctx, profile, b)
	case err != nil:
		return last, known, err
	}
	b = library.Balance{Reported: true, Credit: got.Credit, Used: got.Used, Checked: now}
	return b, true, lib.SetBalance(ctx, profile, b)
}

// Summary is what the status bar says of a profile's money.
type Summary struct {
	Today pricing.Money
	// DailyCap is 0 when none is set.
	DailyCap float64
	// Balance, when HasBalance, is what the service says is left, in
	// its own unit (dollars unless the profile counts in quota).
	Balance    float64
	HasBalance bool
	Currency   string
}

// Summarise is p's summary now: today's spend, its cap and the balance.
func Summarise(ctx context.Context, lib *library.Library, p config.Profile, balance library.Balance, hasBalance bool, now time.Time) (Summary, error) {
	cur := p.Prices.Money(0).Currency
	today, _, err := Ledger{Lib: lib}.Spent(ctx, p.ID, cur, now)
	s := Summary{Today: pricing.Money{Amount: today, Currency: cur}, DailyCap: p.Budget.Daily, Currency: cur}
	if hasBalance && balance.Reported {
		s.Balance, s.HasBalance = balance.Left(), true
	}
	return s, err
}

// String is the status bar's words: "Today $0.36 of $2.00 · Balance
// $24.64".
func (s Summary) String() string {
	out := catalogue.F("Today %s", s.Today)
	if s.DailyCap > 0 {
		out = catalogue.F("Today %s of %s", s.Today, pricing.Money{Amount: s.DailyCap, Currency: s.Currency})
	}
	if s.HasBalance {
		unit := pricing.USD
		if s.Currency == pricing.Quota {
			unit = pricing.Quota
		}
		out += " · " + catalogue.F("Balance %s", pricing.Money{Amount: s.Balance, Currency: unit})
	}
	return out
}
