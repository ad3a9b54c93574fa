package gateway

import (
	"context"
	"errors"
	"math"
	"time"

	"easel/internal/api"
	"easel/internal/pricing"
)

// Facts are what one key's gateway said of money, read from its own
// endpoints: what it is, how it counts, what each model costs there, the
// key group's ratio and what the key may still spend. Each part is nil
// when the gateway does not serve it. Facts are named by the gateway and
// the key they were read of (Of) and kept under those names
// (library.Ledger.SetGatewayFacts), so every profile on one key shares
// them, and are read again sparingly: new-api throttles its console
// reads.
type Facts struct {
	Kind    Kind                `json:"kind,omitempty"`
	Status  *api.GatewayStatus  `json:"status,omitempty"`
	Pricing *api.GatewayPricing `json:"pricing,omitempty"`
	Usage   *api.TokenUsage     `json:"usage,omitempty"`
	// Rate is sub2api's effective rate multiplier for the key's group,
	// on the list prices; 0 when the gateway publishes none.
	Rate float64 `json:"rate,omitempty"`
	// Checked is when the prices were read; UsageChecked, the key's use.
	Checked      time.Time `json:"checked"`
	UsageChecked time.Time `json:"usage_checked,omitzero"`
	// Doubts are the figures above that do not add up (Audit): kept to
	// be shown, never used.
	Doubts []Doubt `json:"doubts,omitempty"`
	// Anchor is the last reading of the key's running figure that the
	// ledger was settled to (spend.Settle); Learnt, the rate the key's
	// figure showed it pays, where nobody declared its group.
	Anchor *Reading `json:"anchor,omitempty"`
	Learnt *Learnt  `json:"learnt,omitempty"`
	// UsageReads are when the key's usage was read within the last
	// UsageWindow, by any Easel process on this gallery: the gateway
	// counts them against its limit (ReadUsage).
	UsageReads []time.Time `json:"usage_reads,omitempty"`
	// Spent is the key's own running figure in dollars where the gateway
	// serves one beside its rate (sub2api's /v1/usage), as last read;
	// nil where it does not.
	Spent *Reading `json:"spent,omitempty"`
	// BaseURL and KeyID are whose facts these are: the gateway asked and
	// the key asked with (api.Client.KeyID), set when they were read.
	BaseURL string `json:"base_url,omitempty"`
	KeyID   string `json:"key_id,omitempty"`
}

// Of returns f as the facts of the key keyID at baseURL, and whether
// they were that key's. Facts read of another gateway say nothing of
// this one: none are left. Facts of another key at the same gateway
// keep what the gateway said of itself (its kind, status, prices, the
// reads counted against its limit) and lose what was the other key's:
// its usage, the reading its ledger was settled to and the rate it was
// seen to pay. Facts kept before they were named, or an unknown key
// (""), are taken as this key's.
func (f Facts) Of(baseURL, keyID string) (Facts, bool) {
	switch {
	case f.BaseURL != "" && baseURL != "" && f.BaseURL != baseURL:
		return Facts{}, false
	case f.KeyID != "" && keyID != "" && f.KeyID != keyID:
		f.Usage, f.UsageChecked, f.Anchor, f.Learnt, f.Spent = nil, time.Time{}, nil, nil, nil
		f.KeyID = keyID
		return f, false
	}
	return f, true
}

// new-api allows 20 reads of /api/usage/token/ in 20 minutes from one
// address, and answers 429 after; the user's own console in a browser
// counts too. Easel keeps to UsageBudget of them in any UsageWindow,
// whichever process asks, and uses the last figures, with their age,
// when the budget is spent.
const (
	UsageWindow = 20 * time.Minute
	UsageBudget = 12
)

// ErrReadBudget is a read of the key's usage refused by Easel itself:
// it was read as often as the gateway allows for now, and the last
// figures stand.
var ErrReadBudget = errors.New("gateway: usage read budget spent")

// Reading is a gateway's running figure of what one key has used, in
// its own unit (UnitQuota from /api/usage/token/, UnitDollars from the
// billing pair's total_usage), when it was read.
type Reading struct {
	Used float64   `json:"used"`
	Unit string    `json:"unit"`
	At   time.Time `json:"at"`
}

// The units of a Reading. The values are stored: never renamed.
const (
	UnitQuota   = "quota"
	UnitDollars = "usd"
)

// Learnt is the rate a key pays, as its own figure showed it: what the
// figure moved by over what Easel wrote at the rate it assumed.
type Learnt struct {
	Rate     float64   `json:"rate"`
	Requests int       `json:"requests"`
	At       time.Time `json:"at"`
}

// Reader is what asks a gateway (api.Client).
type Reader interface {
	GatewayStatus(ctx context.Context) (api.GatewayStatus, error)
	GatewayPricing(ctx context.Context) (api.GatewayPricing, error)
	TokenUsage(ctx context.Context) (api.TokenUsage, error)
	Sub2APIRate(ctx context.Context) (float64, error)
	Sub2APISpent(ctx context.Context) (float64, error)
}

// PricesFresh and UsageFresh are how long what a gateway said is used
// before it is asked again: prices change by the operator's hand, a key's
// use with every request; new-api lets a key read its console about five
// times in twenty minutes.
const (
	PricesFresh = 6 * time.Hour
	UsageFresh  = 4 * time.Minute
)

// Read asks a gateway what it charges (its status and pricing) and what
// the key has left. A gateway that serves a status and no prices is
// one-api; one that serves none but /v1/sub2api/billing is sub2api, with
// its key's rate; one that serves nothing of these is Unknown. A failure
// to reach it is returned (ask later).
//
// What the ledger was settled to and the reads of the key's usage that
// count against the gateway's limit are carried over from before.
func Read(ctx context.Context, r Reader, before Facts, now time.Time) (Facts, error) {
	f := Facts{Checked: now, Anchor: before.Anchor, Learnt: before.Learnt, UsageReads: before.UsageReads,
		BaseURL: before.BaseURL, KeyID: before.KeyID, Spent: before.Spent}
	st, err := r.GatewayStatus(ctx)
	switch {
	case err == nil:
		f.Status, f.Kind = &st, NewAPI
	case !errors.Is(err, api.ErrNotOffered) && !errors.Is(err, api.ErrImpossible):
		return Facts{}, err
	}
	if f.Status != nil {
		// new-api serves its prices; one-api, from which it forked,
		// serves the same status and none.
		pr, err := r.GatewayPricing(ctx)
		switch {
		case err == nil:
			f.Pricing = &pr
		case errors.Is(err, api.ErrNotOffered):
			f.Kind = OneAPI
		}
	}
	if f.Status == nil {
		rate, err := r.Sub2APIRate(ctx)
		switch {
		case err == nil:
			f.Rate, f.Kind = rate, Sub2API
			_ = f.ReadSpent(ctx, r, now) // the key's figure, where it says it
		case !errors.Is(err, api.ErrNotOffered) && !errors.Is(err, api.ErrImpossible):
			return Facts{}, err
		}
	}
	if f.Kind == Sub2API {
		return f.Audit(), nil
	}
	if err := f.ReadUsage(ctx, r, now); err != nil {
		return f.Audit(), err
	}
	return f.Audit(), nil
}

// ReadUsage asks again what the key has used and has left.
func (f *Facts) ReadUsage(ctx context.Context, r Reader, now time.Time) error {
	if err := f.countRead(now); err != nil {
		return err
	}
	u, err := r.TokenUsage(ctx)
	switch {
	case err == nil:
		f.Usage, f.UsageChecked = &u, now
		if f.Kind == Unknown {
			f.Kind = NewAPI
		}
	case errors.Is(err, api.ErrImpossible):
		f.Usage, f.UsageChecked = nil, now
	case !errors.Is(err, api.ErrNotOffered):
		return err
	}
	*f = f.Audit()
	return nil
}

// QuotaPerUnit is the gateway's quota units to the dollar.
func (f Facts) QuotaPerUnit() float64 {
	if f.Status != nil && f.Status.QuotaPerUnit > 0 {
		return f.Status.QuotaPerUnit
	}
	return pricing.DefaultPerDollar(pricing.Quota)
}

// GroupRatio is the ratio the gateway publishes for group ("" is its
// "default"); ok is false when it publishes none.
func (f Facts) GroupRatio(group string) (float64, bool) {
	if f.RatioDoubted(group) {
		return 0, false
	}
	if f.Kind == Sub2API && f.Rate > 0 {
		return f.Rate, true // sub2api says the key's own group's rate
	}
	if f.Pricing == nil {
		return 0, false
	}
	if group == "" {
		group = "default"
	}
	r, ok := f.Pricing.GroupRatio[group]
	return r, ok
}

// Quota is what the gateway charges, in its quota units, for a request
// to model by a key of group (at ratio) that reported usage u and made
// images pictures, as new-api computes it: tokens × model ratio ×
// group ratio (outputs × completion ratio, image inputs × image ratio), or
// model price × quota per unit × group ratio a picture for a model priced
// per call. ok is false when the gateway has no price for model or the
// usage needed is missing.
func (f Facts) Quota(model string, ratio float64, u *api.Usage, images int) (float64, bool) {
	if f.Pricing == nil || f.Doubted(DoubtUnit, "") {
		return 0, false
	}
	mp, ok := f.Pricing.Models[model]
	if !ok {
		return 0, false
	}
	if mp.PerCall {
		n := max(images, 1)
		return math.Round(mp.ModelPrice * f.QuotaPerUnit() * ratio * float64(n)), true
	}
	if u == nil || u.InputTokens == 0 && u.OutputTokens == 0 {
		return 0, false
	}
	text, img := float64(u.TextTokens), float64(u.ImageTokens)
	if text == 0 && img == 0 {
		text = float64(u.InputTokens)
	}
	tokens := text + img*mp.ImageRatio + float64(u.OutputTokens)*mp.CompletionRatio
	return math.Round(tokens * mp.ModelRatio * ratio), true
}

// InCurrency turns quota units into currency: dollars at the gateway's
// quota per unit, yuan at its published rate (else perDollar, the
// profile's), or the units themselves.
func (f Facts) InCurrency(quota float64, currency string, perDollar float64) float64 {
	switch currency {
	case pricing.Quota:
		return quota
	case pricing.CNY:
		if f.Status != nil && f.Status.DisplayType == "CNY" && f.Status.ExchangeRate > 0 && !f.Doubted(DoubtExchange, "") {
			perDollar = f.Status.ExchangeRate
		}
		return quota / f.QuotaPerUnit() * perDollar
	}
	return quota / f.QuotaPerUnit()
}

// Unit is the currency the gateway shows its amounts in.
func (f Facts) Unit() string {
	if f.Status == nil {
		return pricing.USD
	}
	switch f.Status.DisplayType {
	case "CNY":
		return pricing.CNY
	case "TOKENS":
		return pricing.Quota
	}
	return pricing.USD
}

// Prices are the gateway's own prices as list prices are written, in
// dollars, for the models it prices: so a model only the gateway knows
// (an alias such as "image-fast") is estimated at what the gateway
// charges. None when its unit does not add up.
func (f Facts) Prices() map[string]pricing.Price {
	if f.Pricing == nil || f.Doubted(DoubtUnit, "") {
		return nil
	}
	src := "the gateway's /api/pricing, read " + f.Checked.Format("2006-01-02")
	out := make(map[string]pricing.Price, len(f.Pricing.Models))
	for id, mp := range f.Pricing.Models {
		if mp.PerCall {
			out[id] = pricing.Price{PerCall: mp.ModelPrice, Source: src}
			continue
		}
		// ModelRatio quota units a token: a million tokens is
		// ModelRatio × 1e6 / quota-per-unit dollars.
		in := mp.ModelRatio * 1e6 / f.QuotaPerUnit()
		out[id] = pricing.Price{TextIn: in, ImageIn: in * max(mp.ImageRatio, 1), ImageOut: in * mp.CompletionRatio,
			TextOut: in * mp.CompletionRatio, Source: src}
	}
	return out
}

// ReadSpent reads again the key's own running figure in dollars (sub2api's
// /v1/usage), within the same read budget as new-api's usage: a gateway
// that does not say it leaves Spent nil.
func (f *Facts) ReadSpent(ctx context.Context, r Reader, now time.Time) error {
	if err := f.countRead(now); err != nil {
		return err
	}
	spent, err := r.Sub2APISpent(ctx)
	switch {
	case err == nil:
		f.Spent = &Reading{Used: spent, Unit: UnitDollars, At: now}
	case errors.Is(err, api.ErrNotOffered) || errors.Is(err, api.ErrImpossible):
		f.Spent = nil
	default:
		return err
	}
	return nil
}

// countRead counts a read of the key's figures at now against the
// gateway's limit, or refuses it (ErrReadBudget) when the budget of the
// last UsageWindow is spent.
func (f *Facts) countRead(now time.Time) error {
	recent := f.UsageReads[:0:0]
	for _, at := range f.UsageReads {
		if now.Sub(at) < UsageWindow && !at.After(now) {
			recent = append(recent, at)
		}
	}
	if f.UsageReads = recent; len(recent) >= UsageBudget {
		return ErrReadBudget
	}
	f.UsageReads = append(f.UsageReads, now)
	return nil
}
