package spend

import (
	"context"
	"math"
	"time"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/gateway"
	"easel/internal/library"
	"easel/internal/pricing"
)

// What Easel writes for a request is its best figure: the gateway's own
// prices where it publishes them, else the answer's usage at list prices
// and the key's assumed rate. Neither is the bill where the gateway bills
// otherwise (one-api's flat price a picture), or where nobody declared
// the key's group. The bill is the key's own running figure, which
// new-api (/api/usage/token/) and one-api (the billing pair's
// total_usage) serve per key. Each time Easel reads that figure, what it
// moved by since the reading before is shared out over the entries
// written between the two readings, by what each wrote: one request
// between two readings is settled exactly, several are apportioned and
// say by how many. An entry not yet settled on such a gateway counts as
// written and is shown as an estimate ("≈ $0.25, not yet confirmed by
// the gateway"). What the figure moved by over what Easel wrote, at the
// rate it assumed, is the rate the key pays: learnt where nobody
// declared the key's group, and used for estimates from then on.
//
// The figure counts every program's use of the key: a reading that
// moved with nothing of Easel's written between is another program's,
// and settles nothing.

// settle moves f's anchor to reading r and settles the entries of p's
// key in use written since the anchor before. It returns f with the new
// anchor and any rate learnt; a failure leaves the anchor where it was.
func settle(ctx context.Context, books *library.Ledger, p config.Profile, f gateway.Facts, r gateway.Reading) gateway.Facts {
	prev := f.Anchor
	f.Anchor = &r
	if books == nil || prev == nil || prev.Unit != r.Unit || !r.At.After(prev.At) {
		return f
	}
	if r.Used < prev.Used {
		return f // the figure went back (a key reset or recharged): start again from here
	}
	cur := p.Prices.Money(0).Currency
	delta := readingIn(f, r.Unit, r.Used-prev.Used, cur, p)
	rows, err := books.Unsettled(ctx, p.ID, p.UsingGroup(), cur, prev.At, r.At)
	if err != nil {
		f.Anchor = prev
		return f
	}
	if len(rows) == 0 || !pricing.Sane(delta) {
		return f
	}
	written := 0.0
	for _, e := range rows {
		written += e.Written()
	}
	amounts := make(map[int64]float64, len(rows))
	for _, e := range rows {
		share := 1 / float64(len(rows))
		if written > 0 {
			share = e.Written() / written
		}
		amounts[e.ID] = delta * share
	}
	if err := books.Settle(ctx, amounts, len(rows), r.At); err != nil {
		f.Anchor = prev
		return f
	}
	return learn(p, f, delta, written, len(rows), r.At)
}

// learn keeps the rate the key's figure showed, where the key's rate is
// not the user's nor a declared group's published ratio: written was
// figured at the rate the key was assumed to pay; delta is what it paid.
func learn(p config.Profile, f gateway.Facts, delta, written float64, n int, at time.Time) gateway.Facts {
	assumed, from := KeyRate(p, p.UsingGroup(), f)
	if written <= 0 || from == RateFromUser || from == RateFromGateway || from == RateFromSub2API {
		return f
	}
	rate := assumed * delta / written
	if math.IsNaN(rate) || rate < 0.001 || rate > 100 {
		return f // not a rate: another program's use, or a refund, in the pair
	}
	requests := n
	if f.Learnt != nil {
		requests += f.Learnt.Requests
	}
	f.Learnt = &gateway.Learnt{Rate: math.Round(rate*1000) / 1000, Requests: requests, At: at}
	return f
}

// readingIn is v of a reading's unit in currency.
func readingIn(f gateway.Facts, unit string, v float64, currency string, p config.Profile) float64 {
	if unit == gateway.UnitQuota {
		return f.InCurrency(v, currency, p.Prices.PerDollarRate())
	}
	return f.InCurrency(v*f.QuotaPerUnit(), currency, p.Prices.PerDollarRate())
}

// Settles reports whether the gateway in front of a key with facts f
// serves the key's own running figure, so that an entry Easel writes is
// an estimate until the figure settles it.
func Settles(f gateway.Facts) bool {
	return f.Usage != nil || f.Kind == gateway.OneAPI || f.Spent != nil
}

// Settle reads the running figure of p's key in use, where its gateway
// serves one and its read limits allow, and settles the ledger to it:
// what the command line does after each request and before printing
// what was spent, and the window's status bar as it refreshes. It
// returns the facts as they stand after.
func Settle(ctx context.Context, books *library.Ledger, p config.Profile, asker Asker, now time.Time) gateway.Facts {
	if books == nil || asker == nil {
		return gateway.Facts{}
	}
	f, known := Facts(ctx, books, p, asker, now)
	switch {
	case !known:
	case f.Kind == gateway.NewAPI:
		f = FreshUsage(ctx, books, p, asker, now)
	case f.Kind == gateway.OneAPI:
		_, _ = Balance(ctx, books, p, asker, now)
		f, _ = Facts(ctx, books, p, nil, now)
	case f.Spent != nil && (f.Spent.At.Before(now) || f.Anchor == nil):
		// sub2api: the key's charges in dollars, from /v1/usage.
		if f.ReadSpent(ctx, asker, now) == nil && f.Spent != nil {
			f = settle(ctx, books, p, f, *f.Spent)
		}
		_ = books.SetGatewayFacts(ctx, p.ID, p.UsingGroup(), f)
	}
	return f
}

// SettledLine says what the gateway's own figure for the key settled an
// entry at, for the command line and the spend view.
func SettledLine(e library.Entry) string {
	m := pricing.Money{Amount: *e.Settled, Currency: e.Currency}
	if e.SettledWith > 1 {
		return catalogue.F("the gateway's own figure for this key settles it at %s (its share of %d requests between two readings)", m, e.SettledWith)
	}
	return catalogue.F("the gateway's own figure for this key settles it at %s", m)
}

// Anchor takes a first reading of the key's running figure where its
// gateway keeps one and none was taken yet, so the first request after
// it is settled exactly: what the command line does before it sends.
func Anchor(ctx context.Context, books *library.Ledger, p config.Profile, asker Asker, now time.Time) {
	if books == nil || asker == nil {
		return
	}
	if f, known := Facts(ctx, books, p, nil, now); known && Settles(f) && f.Anchor == nil {
		Settle(ctx, books, p, asker, now)
	}
}
