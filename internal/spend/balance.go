package spend

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/gateway"
	"easel/internal/library"
	"easel/internal/pricing"
)

// Asker is what asks a service about money (api.Client): the
// OpenAI-style billing pair, and a gateway's own console endpoints.
type Asker interface {
	Balance(ctx context.Context) (api.Balance, error)
	gateway.Reader
}

// UnlimitedDollars is where a credit stops being an account's money: new-api
// and one-api answer hard_limit_usd 100,000,000 for a key without a limit
// of its own, and no designer's account holds ten million dollars.
const UnlimitedDollars = 1e7

// State is what can be said of a key's balance.
type State int

// The states of a balance.
const (
	// NoBalance: the service reports none (OpenAI's own API, for a key).
	NoBalance State = iota
	// Amount: the service reported what is left, and it is possible.
	Amount
	// Unlimited: the key has no limit of its own; it spends from the
	// account's wallet, which a key cannot see.
	Unlimited
	// Impossible: the service reported figures no account can have
	// (negative, not finite, more used than granted).
	Impossible
	// Doubtful: the figures are possible one by one and do not add up
	// together (gateway.Audit): shown as the gateway's claim, not used.
	Doubtful
)

// Standing is a key's balance as Easel shows it: true or absent, with
// where it came from and when.
type Standing struct {
	State State
	// Left is what remains, for Amount.
	Left pricing.Money
	// Source says which of the service's answers it is.
	Source  string
	Checked time.Time
	// Doubt is what did not add up, for Doubtful; Reported, what the
	// gateway said is left, where it could be read.
	Doubt    gateway.Doubt
	Reported pricing.Money
}

// The sources of a balance.
const (
	SourceKeyUsage = "key-usage" // a gateway's /api/usage/token/, this key's own
	SourceBilling  = "billing"   // the OpenAI-style /dashboard/billing pair
)

// String is the status bar's words for it: "Balance $24.64", "Unlimited
// key", "The service reported an impossible balance", or "" for none.
func (s Standing) String() string {
	switch s.State {
	case Amount:
		return catalogue.F("Balance %s", s.Left)
	case Unlimited:
		return catalogue.T("Unlimited key")
	case Impossible:
		return catalogue.T("Impossible balance reported")
	case Doubtful:
		return catalogue.T("Balance does not add up")
	}
	return ""
}

// Explain is the standing in a sentence with its source, for `easel
// balance` and the status bar's tooltip.
func (s Standing) Explain() string {
	from := map[string]string{
		SourceKeyUsage: catalogue.T("the gateway's own figure for this key, /api/usage/token/"),
		SourceBilling:  catalogue.T("the service's billing endpoints, /dashboard/billing"),
	}[s.Source]
	switch s.State {
	case Amount:
		return catalogue.F("%s left, from %s, read %s.", s.Left, from, s.Checked.Local().Format("2006-01-02 15:04"))
	case Unlimited:
		return catalogue.F("Unlimited key: it has no limit of its own, so what it may spend is the account's balance, which only the gateway's console shows (from %s).", from)
	case Impossible:
		return catalogue.F("The service reported an impossible balance (more used than granted, a negative or endless figure), so none is shown (from %s).", from)
	case Doubtful:
		return DoubtText(s.Doubt, s.Reported) + " " + catalogue.F("So no balance is shown (from %s).", from)
	}
	return catalogue.T("This service reports no balance for a key: see its console.")
}

// Facts are what the gateway in front of p's key in use said of money,
// from the library, asked again of asker (when not nil) once they are
// stale. A gateway that cannot be reached leaves what was known.
func Facts(ctx context.Context, books *library.Ledger, p config.Profile, asker gateway.Reader, now time.Time) (gateway.Facts, bool) {
	if books == nil {
		return gateway.Facts{}, false
	}
	group := p.UsingGroup()
	f, known, err := books.GatewayFacts(ctx, p.ID, group)
	f = f.Audit() // kept before the audit was, or before its bounds moved
	if err != nil || asker == nil {
		return f, known
	}
	// Of the key in use at its gateway: a key replaced in the profile, or
	// the profile pointed at another gateway, is read afresh.
	baseURL, keyID := strings.TrimRight(p.BaseURL, "/"), keyOf(asker)
	f, mine := f.Of(baseURL, keyID)
	f, known, mine = ofKey(ctx, books, baseURL, keyID, f, known, mine)
	f.BaseURL, f.KeyID = baseURL, keyID
	switch {
	case !known || !mine || now.Sub(f.Checked) > gateway.PricesFresh:
		got, err := gateway.Read(ctx, asker, f, now)
		if err != nil && got.Status == nil && got.Pricing == nil {
			return f, known
		}
		if err != nil {
			// The prices were read and only the key's usage failed (new-api
			// allows ~20 usage reads in 20 minutes and answers 429): what
			// was read is kept, the usage as it was, with its age (#54).
			got.Usage, got.UsageChecked = f.Usage, f.UsageChecked
			got = got.Audit()
		}
		f, known = got, true
	case f.Kind == gateway.NewAPI && now.Sub(f.UsageChecked) > gateway.UsageFresh:
		if f.ReadUsage(ctx, asker, now) != nil {
			return f, known
		}
	default:
		return f, known
	}
	f = settleToUsage(ctx, books, p, f, now)
	_ = books.SetGatewayFacts(ctx, p.ID, group, f)
	return f, known
}

// ofKey is, for a slot that has no facts of this key, the facts another
// profile on the same gateway and key read, when there are any: one
// cache and one count of console reads per key, whichever profile asks.
// Else f as it was.
func ofKey(ctx context.Context, books *library.Ledger, baseURL, keyID string, f gateway.Facts, known, mine bool) (gateway.Facts, bool, bool) {
	if known && mine {
		return f, known, mine
	}
	shared, ok, err := books.FactsOfKey(ctx, baseURL, keyID)
	if err != nil || !ok {
		return f, known, mine
	}
	return shared.Audit(), true, true
}

// keyOf names the key asker asks with (an api.Client does; "" for an
// asker that cannot say).
func keyOf(asker gateway.Reader) string {
	if k, ok := asker.(interface{ KeyID() string }); ok {
		return k.KeyID()
	}
	return ""
}

// settleToUsage settles the key's ledger to its figure when f holds one
// read at now.
func settleToUsage(ctx context.Context, books *library.Ledger, p config.Profile, f gateway.Facts, now time.Time) gateway.Facts {
	if f.Usage == nil || !f.UsageChecked.Equal(now) || f.Doubted(gateway.DoubtUnit, "") {
		return f
	}
	return settle(ctx, books, p, f, gateway.Reading{Used: f.Usage.Used, Unit: gateway.UnitQuota, At: now})
}

// FreshUsage reads again what p's key in use has used and has left, for
// a person who asked (easel balance, --reconcile), whatever its age.
func FreshUsage(ctx context.Context, books *library.Ledger, p config.Profile, asker gateway.Reader, now time.Time) gateway.Facts {
	f, known := Facts(ctx, books, p, asker, now)
	if !known || f.Kind != gateway.NewAPI || asker == nil || !f.UsageChecked.Before(now) {
		return f
	}
	if f.ReadUsage(ctx, asker, now) == nil && books != nil {
		f = settleToUsage(ctx, books, p, f, now)
		_ = books.SetGatewayFacts(ctx, p.ID, p.UsingGroup(), f)
	}
	return f
}

// Balance is the standing of p's key in use: the gateway's own figure
// for the key where it serves one, else the billing pair, asked of asker
// unless the service is remembered not to report one. When the service
// cannot be reached the last figures it reported are used, with the
// error.
func Balance(ctx context.Context, books *library.Ledger, p config.Profile, asker Asker, now time.Time) (Standing, error) {
	if books == nil {
		return Standing{}, nil
	}
	var reader gateway.Reader
	if asker != nil {
		reader = asker
	}
	f, _ := Facts(ctx, books, p, reader, now)
	if f.Usage != nil {
		return keyStanding(f, p), nil
	}
	group := p.UsingGroup()
	last, known, err := books.BalanceOf(ctx, p.ID, group)
	if err != nil {
		return Standing{}, err
	}
	if known && !last.Reported || asker == nil {
		return billingStanding(last, known, f, p), nil
	}
	got, err := asker.Balance(ctx)
	switch {
	case errors.Is(err, api.ErrImpossible):
		return Standing{State: Impossible, Source: SourceBilling, Checked: now}, nil
	case errors.Is(err, api.ErrNoBalance):
		b := library.Balance{Reported: false, Checked: now}
		return Standing{}, books.SetBalance(ctx, p.ID, group, b)
	case err != nil:
		return billingStanding(last, known, f, p), err
	}
	b := library.Balance{Reported: true, Credit: got.Credit, Used: got.Used, Checked: now}
	if f.Kind == gateway.OneAPI && !bad(got.Used) {
		// one-api's billing pair is the key's own figure, in dollars.
		f = settle(ctx, books, p, f, gateway.Reading{Used: got.Used, Unit: gateway.UnitDollars, At: now})
		_ = books.SetGatewayFacts(ctx, p.ID, group, f)
	}
	return billingStanding(b, true, f, p), books.SetBalance(ctx, p.ID, group, b)
}

// keyStanding reads a gateway's figures for one key.
func keyStanding(f gateway.Facts, p config.Profile) Standing {
	u := f.Usage
	s := Standing{Source: SourceKeyUsage, Checked: f.UsageChecked}
	unit := unitOf(f, p)
	reported := pricing.Money{Amount: f.InCurrency(max(u.Available, 0), unit, p.Prices.PerDollarRate()), Currency: unit}
	if d, ok := f.DoubtOf(gateway.DoubtUnit, ""); ok && !u.Unlimited {
		s.State, s.Doubt, s.Reported = Doubtful, d, reported
		return s
	}
	if d, ok := f.DoubtOf(gateway.DoubtBalance, ""); ok {
		s.State, s.Doubt, s.Reported = Doubtful, d, reported
		return s
	}
	switch {
	case u.Unlimited || u.Available/f.QuotaPerUnit() >= UnlimitedDollars:
		s.State = Unlimited
	case math.Abs(u.Granted-u.Used-u.Available) > 1:
		// new-api's granted is what remains plus what was used: figures
		// that do not add up are not an account's.
		s.State = Impossible
	default:
		s.State, s.Left = Amount, reported
	}
	return s
}

// DoubtText is a figure that does not add up, in a sentence that says
// what the gateway reported and why Easel does not take it: the gateway's
// figure, never Easel's.
func DoubtText(d gateway.Doubt, left pricing.Money) string {
	n := FormatRate(d.Reported)
	switch d.What {
	case gateway.DoubtUnit:
		return catalogue.F("The gateway reports %s quota units to the dollar, which does not add up: its prices would then be far from any list price.", n)
	case gateway.DoubtExchange:
		return catalogue.F("The gateway reports %s yuan to the dollar, which does not add up.", n)
	case gateway.DoubtGroup:
		return catalogue.F("The gateway reports a rate of ×%s for group %q, which does not add up.", n, d.Group)
	case gateway.DoubtRate:
		return catalogue.F("The gateway reports a rate of ×%s for this key, which does not add up.", n)
	case gateway.DoubtBalance:
		return catalogue.F("The gateway reports %s left, which does not add up: a million times what the key has used.", left)
	}
	return ""
}

// billingStanding reads the billing pair: hard_limit_usd less
// total_usage, in dollars unless the gateway counts in its own units.
func billingStanding(b library.Balance, known bool, f gateway.Facts, p config.Profile) Standing {
	if !known || !b.Reported {
		return Standing{}
	}
	s := Standing{Source: SourceBilling, Checked: b.Checked}
	unit := pricing.USD
	if f.Status != nil && f.Unit() == pricing.Quota || f.Status == nil && p.Prices.Currency == pricing.Quota {
		unit = pricing.Quota
	}
	credit, used := b.Credit, b.Used
	dollars := credit
	if unit == pricing.Quota {
		dollars = credit / f.QuotaPerUnit()
	}
	switch {
	case bad(credit) || bad(used):
		s.State = Impossible
	case dollars >= UnlimitedDollars:
		s.State = Unlimited
	case used > credit+1e-9:
		s.State = Impossible
	case unit == pricing.USD && unitOf(f, p) == pricing.CNY:
		// The billing pair speaks dollars; the gateway shows yuan.
		s.State, s.Left = Amount, pricing.Money{Amount: f.InCurrency((credit-used)*f.QuotaPerUnit(), pricing.CNY, p.Prices.PerDollarRate()), Currency: pricing.CNY}
	default:
		s.State, s.Left = Amount, pricing.Money{Amount: credit - used, Currency: unit}
	}
	return s
}

// bad is a figure no account has.
func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1e15 }

// unitOf is the unit a key's amounts are shown in: the gateway's own,
// unless the profile counts in quota units or yuan.
func unitOf(f gateway.Facts, p config.Profile) string {
	if p.Prices.Currency == pricing.Quota || p.Prices.Currency == pricing.CNY {
		return p.Prices.Currency
	}
	return f.Unit()
}

// Summary is what the status bar says of a profile's money.
type Summary struct {
	Today pricing.Money
	// DailyCap is 0 when none is set.
	DailyCap float64
	Balance  Standing
	Currency string
}

// Summarise is p's summary now: today's spend, its cap and the balance.
func Summarise(ctx context.Context, books *library.Ledger, p config.Profile, balance Standing, now time.Time) (Summary, error) {
	cur := p.Prices.Money(0).Currency
	today, _, err := Ledger{Books: books}.Spent(ctx, p.ID, cur, now)
	s := Summary{Today: pricing.Money{Amount: today, Currency: cur}, DailyCap: p.Budget.Daily, Currency: cur, Balance: balance}
	return s, err
}

// OverCap reports whether today's spend has passed the daily cap: the
// status bar then draws its figure as a warning.
func (s Summary) OverCap() bool { return s.DailyCap > 0 && s.Today.Amount > s.DailyCap+1e-9 }

// String is the status bar's words: "Today $0.36 of $2.00 · Balance
// $24.64".
func (s Summary) String() string {
	out := catalogue.F("Today %s", s.Today)
	switch limit := (pricing.Money{Amount: s.DailyCap, Currency: s.Currency}); {
	case s.OverCap():
		out = catalogue.F("Today %s, over the cap of %s", s.Today, limit)
	case s.DailyCap > 0:
		out = catalogue.F("Today %s of %s", s.Today, limit)
	}
	if b := s.Balance.String(); b != "" {
		out += " · " + b
	}
	return out
}

// KeyRate is the group rate of p's key of group and where it came from:
// the user's own for the key; else what the gateway says of that key
// (sub2api's rate for it, or the ratio it publishes for the group the
// key was declared in); else the rate the key's own running figure
// showed (settle); else the profile's rate (the user's); else 1, said as
// an assumption when the gateway prices groups and nobody said which is
// the key's.
func KeyRate(p config.Profile, group string, f gateway.Facts) (rate float64, source string) {
	if r, ok := p.Prices.KeyRate(group); ok {
		return r, RateFromUser
	}
	if r, ok := f.GroupRatio(group); ok && (group != "" || f.Kind == gateway.Sub2API) {
		if f.Kind == gateway.Sub2API {
			return r, RateFromSub2API
		}
		return r, RateFromGateway
	}
	if f.Learnt != nil {
		return f.Learnt.Rate, RateFromUsage
	}
	if p.Prices.GroupRate > 0 {
		return p.Prices.GroupRate, RateFromUser
	}
	if f.RatioDoubted(group) {
		return 1, RateDoubted
	}
	if group == "" && (f.Pricing != nil || f.Kind == gateway.OneAPI) {
		return 1, RateUnknownGroup
	}
	return 1, RateFromList
}

// Where a key's rate came from.
const (
	RateFromUser     = "user"
	RateFromGateway  = "gateway"
	RateFromSub2API  = "sub2api"
	RateFromUsage    = "usage"
	RateFromList     = "list"
	RateDoubted      = "doubted"
	RateUnknownGroup = "unknown-group"
)

// KeyTable is p's prices for its key in use: its group's rate in place
// of the profile's, so an estimate prices what that key pays.
func KeyTable(p config.Profile, f gateway.Facts) pricing.Table {
	r, _ := KeyRate(p, p.UsingGroup(), f)
	t := p.Prices.ForKey(r)
	t.Gateway = f.Prices()
	return t
}

// KeyLabel is a key's group as a person reads it.
func KeyLabel(group string) string {
	if group == "" {
		return catalogue.T("The profile's own key")
	}
	return catalogue.F("Key of group %q", group)
}

// FormatRate writes a rate without trailing zeros: 0.5, 1, 1.25.
func FormatRate(r float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", r), "0"), ".")
}

// RateSourceText says where a key's rate came from.
func RateSourceText(from string) string {
	return map[string]string{
		RateFromUser:     catalogue.T("set by you"),
		RateFromGateway:  catalogue.T("from the gateway's /api/pricing"),
		RateFromSub2API:  catalogue.T("from the gateway's /v1/sub2api/billing"),
		RateFromList:     catalogue.T("list prices: the gateway publishes none"),
		RateDoubted:      catalogue.T("list prices: the gateway's rate for this key does not add up"),
		RateFromUsage:    catalogue.T("from the gateway's usage for this key"),
		RateUnknownGroup: catalogue.T("group unknown: list price ×1 assumed"),
	}[from]
}

// Reconciliation is Easel's figure for a key beside the gateway's own,
// for the same key: what the spend view and `easel spend --reconcile`
// show.
type Reconciliation struct {
	// Group is the key's account group.
	Group string
	// Billed and Unsure are Easel's ledger for the key, all time: what
	// was billed, and what may have been (at its estimates).
	Billed, Unsure pricing.Money
	// Gateway is what the gateway says the key has used, read at
	// Checked; HasGateway is false when it reports no use per key.
	Gateway    pricing.Money
	HasGateway bool
	Checked    time.Time
	// Doubt says why the gateway's figure is not used, when its unit
	// does not add up.
	Doubt string
	// Endpoint is where the gateway's figure was read.
	Endpoint string
	// Waiting is how many of Easel's entries for the key its figure has
	// not settled yet (read too rarely for the gateway's limits, or
	// written before the first reading): they stand at Easel's own
	// figures, which is a difference the verdict names.
	Waiting int
	// unit is one of the gateway's quota units in the currency.
	unit float64
}

// Reconcile reads Easel's figure for p's key in use and the gateway's
// own (asked afresh of reader when it serves one).
func Reconcile(ctx context.Context, books *library.Ledger, p config.Profile, asker Asker, now time.Time) (Reconciliation, error) {
	f := Settle(ctx, books, p, asker, now)
	cur := p.Prices.Money(0).Currency
	billed, unsure, err := books.SpentByKey(ctx, p.ID, p.UsingGroup(), cur)
	if err != nil {
		return Reconciliation{}, err
	}
	money := func(v float64) pricing.Money { return pricing.Money{Amount: v, Currency: cur} }
	r := Reconciliation{Group: p.UsingGroup(), Billed: money(billed), Unsure: money(unsure), unit: f.InCurrency(1, cur, p.Prices.PerDollarRate())}
	switch d, doubted := f.DoubtOf(gateway.DoubtUnit, ""); {
	case doubted:
		r.Doubt = DoubtText(d, pricing.Money{})
	case f.Usage != nil:
		r.Gateway, r.HasGateway, r.Checked = money(f.InCurrency(f.Usage.Used, cur, p.Prices.PerDollarRate())), true, f.UsageChecked
		r.Endpoint = "/api/usage/token/"
	case f.Spent != nil:
		// sub2api's /v1/usage: what the key was charged, in dollars.
		r.Gateway, r.HasGateway, r.Checked = money(readingIn(f, gateway.UnitDollars, f.Spent.Used, cur, p)), true, f.Spent.At
		r.Endpoint = "/v1/usage"
	case f.Kind == gateway.OneAPI:
		// one-api's billing pair counts the key's own use
		if b, known, _ := books.BalanceOf(ctx, p.ID, p.UsingGroup()); known && b.Reported && !bad(b.Used) {
			r.Gateway, r.HasGateway, r.Checked = money(readingIn(f, gateway.UnitDollars, b.Used, cur, p)), true, b.Checked
			r.Endpoint = "/dashboard/billing/usage"
		}
	}
	if r.HasGateway {
		waiting, _ := books.Unsettled(ctx, p.ID, p.UsingGroup(), cur, time.Time{}, now)
		r.Waiting = len(waiting)
	}
	return r, nil
}

// Verdict says how the two figures compare, in a sentence.
func (r Reconciliation) Verdict() string {
	if r.Doubt != "" {
		return r.Doubt
	}
	if !r.HasGateway {
		return catalogue.T("The gateway reports no use per key (no /api/usage/token/): nothing to reconcile with.")
	}
	diff := r.Gateway.Amount - r.Billed.Amount
	d := pricing.Money{Amount: diff, Currency: r.Gateway.Currency}
	switch {
	case math.Abs(diff) < r.unit:
		return catalogue.T("They agree.")
	case diff > 0 && diff <= r.Unsure.Amount+r.unit:
		return catalogue.F("The gateway counts %s more: within what may have been billed.", d)
	case r.Waiting > 0:
		d.Amount = math.Abs(diff)
		return catalogue.N("They differ by %[2]s: %[1]d of Easel's requests for this key is not yet settled by the gateway's figure and stands at Easel's own estimate until the figure is read again.", r.Waiting, r.Waiting, d)
	}
	if diff < 0 {
		d.Amount = -diff
		return catalogue.F("Easel counts %s more than the gateway: a request the gateway did not bill, or prices that are not the gateway's.", d)
	}
	return catalogue.F("The gateway counts %s more: it counts what the key spent since it was made, through any program; Easel counts its own requests.", d)
}

// Lines are the reconciliation as the spend view and the command line
// print it.
func (r Reconciliation) Lines() []string {
	out := []string{catalogue.F("%s — Easel's ledger: %s billed, %s may have been billed.", KeyLabel(r.Group), r.Billed, r.Unsure)}
	if r.HasGateway {
		out = append(out, catalogue.F("The gateway's figure for this key (%s, read %s): %s used.", r.Endpoint, r.Checked.Local().Format("2006-01-02 15:04"), r.Gateway))
	}
	return append(out, r.Verdict())
}
