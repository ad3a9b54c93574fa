package api

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/tidwall/gjson"
)

// A gateway (new-api, one-api, sub2api) says what it charges and what a
// key has left on console endpoints beside its /v1 API, at the origin's
// root: /api/status, /api/pricing, /api/usage/token/. They go to the same
// origin as every other request, with the same key, and what they answer
// is bounded here before anyone reads it: a number out of range is no
// number (ErrImpossible), never a figure on screen or in a ledger.

// ErrNotOffered says the service has no such endpoint (a 404, a web page,
// an answer of another shape): the gateway is not of the kind that
// serves it. Remember it and do not ask again.
var ErrNotOffered = errors.New("the service does not offer this")

// ErrImpossible says the service answered with a figure no account can
// have (negative, not finite, beyond any real amount).
var ErrImpossible = errors.New("the service reported an impossible figure")

// MaxQuota bounds any quota figure a gateway reports: 1e15 units is two
// billion dollars at new-api's 500,000 to the dollar.
const MaxQuota = 1e15

// GatewayStatus is new-api's /api/status: how it counts money.
type GatewayStatus struct {
	// QuotaPerUnit is how many quota units make one dollar (500,000 by
	// default).
	QuotaPerUnit float64
	// DisplayType is how the gateway shows amounts: "USD", "CNY",
	// "TOKENS" (its quota units) or "CUSTOM".
	DisplayType string
	// ExchangeRate is yuan (or the custom currency) per dollar, when
	// the gateway publishes one; 0 when not.
	ExchangeRate float64
	// Symbol is the custom currency's symbol, for DisplayType CUSTOM.
	Symbol string
	// SystemName is the gateway's own name for itself.
	SystemName string
}

// ModelPricing is one model's line of new-api's /api/pricing.
type ModelPricing struct {
	Model string
	// PerCall is true for a model priced per request (quota_type 1):
	// ModelPrice dollars a call. Otherwise it is priced by tokens:
	// ModelRatio quota units a token, output tokens CompletionRatio
	// times that, image input tokens ImageRatio times.
	PerCall                     bool
	ModelPrice                  float64
	ModelRatio, CompletionRatio float64
	ImageRatio                  float64
	// Groups are the groups that may use the model ("all" for every).
	Groups []string
}

// GatewayPricing is new-api's /api/pricing: each model's price and each
// group's ratio.
type GatewayPricing struct {
	Models     map[string]ModelPricing
	GroupRatio map[string]float64
}

// TokenUsage is new-api's /api/usage/token/: what this key may still
// spend, in quota units.
type TokenUsage struct {
	Name                     string
	Granted, Used, Available float64
	// Unlimited is a key without a limit of its own: it spends from the
	// account's wallet, which the key cannot see.
	Unlimited bool
	// ExpiresAt is when the key stops working (Unix seconds), 0 never.
	ExpiresAt int64
}

// GatewayStatus asks /api/status.
func (c *Client) GatewayStatus(ctx context.Context) (GatewayStatus, error) {
	body, err := c.getJSON(ctx, console(c.cfg.BaseURL, "/api/status"), MaxConsoleBody)
	if err != nil {
		return GatewayStatus{}, err
	}
	d := gjson.GetBytes(body, "data")
	if !d.IsObject() || !d.Get("quota_per_unit").Exists() {
		return GatewayStatus{}, ErrNotOffered
	}
	s := GatewayStatus{
		QuotaPerUnit: d.Get("quota_per_unit").Float(),
		DisplayType:  strings.ToUpper(c.scrub.short(d.Get("quota_display_type").String(), 16)),
		ExchangeRate: d.Get("usd_exchange_rate").Float(),
		Symbol:       c.scrub.short(d.Get("custom_currency_symbol").String(), 8),
		SystemName:   c.scrub.short(d.Get("system_name").String(), 64),
	}
	if s.DisplayType == "" {
		// Older new-api: display_in_currency only.
		s.DisplayType = "TOKENS"
		if d.Get("display_in_currency").Bool() {
			s.DisplayType = "USD"
		}
	}
	if s.DisplayType == "CUSTOM" {
		s.ExchangeRate = d.Get("custom_currency_exchange_rate").Float()
	}
	if !within(s.QuotaPerUnit, 1, 1e9) || !within(s.ExchangeRate, 0, 1e6) {
		return GatewayStatus{}, ErrImpossible
	}
	return s, nil
}

// GatewayPricing asks /api/pricing.
func (c *Client) GatewayPricing(ctx context.Context) (GatewayPricing, error) {
	body, err := c.getJSON(ctx, console(c.cfg.BaseURL, "/api/pricing"), MaxConsoleBody)
	if err != nil {
		return GatewayPricing{}, err
	}
	data := gjson.GetBytes(body, "data")
	if !data.IsArray() {
		return GatewayPricing{}, ErrNotOffered
	}
	p := GatewayPricing{Models: map[string]ModelPricing{}, GroupRatio: map[string]float64{}}
	var bad bool
	data.ForEach(func(_, m gjson.Result) bool {
		mp := ModelPricing{
			Model:           c.scrub.short(m.Get("model_name").String(), 200),
			PerCall:         m.Get("quota_type").Int() == 1,
			ModelPrice:      m.Get("model_price").Float(),
			ModelRatio:      m.Get("model_ratio").Float(),
			CompletionRatio: m.Get("completion_ratio").Float(),
			ImageRatio:      1,
		}
		if r := m.Get("image_ratio"); r.Exists() {
			mp.ImageRatio = r.Float()
		}
		if mp.CompletionRatio == 0 {
			mp.CompletionRatio = 1
		}
		for _, g := range m.Get("enable_groups").Array() {
			mp.Groups = append(mp.Groups, c.scrub.short(g.String(), 64))
		}
		if !within(mp.ModelPrice, 0, 1e4) || !within(mp.ModelRatio, 0, 1e6) || !within(mp.CompletionRatio, 0, 1e4) || !within(mp.ImageRatio, 0, 1e4) {
			bad = true
			return false
		}
		if mp.Model != "" && len(p.Models) < 10000 {
			p.Models[mp.Model] = mp
		}
		return true
	})
	gjson.GetBytes(body, "group_ratio").ForEach(func(k, v gjson.Result) bool {
		if !within(v.Float(), 0, 1e4) {
			bad = true
			return false
		}
		if len(p.GroupRatio) < 1000 {
			p.GroupRatio[c.scrub.short(k.String(), 64)] = v.Float()
		}
		return true
	})
	if bad {
		return GatewayPricing{}, ErrImpossible
	}
	return p, nil
}

// TokenUsage asks /api/usage/token/ what this key may still spend.
func (c *Client) TokenUsage(ctx context.Context) (TokenUsage, error) {
	body, err := c.getJSON(ctx, console(c.cfg.BaseURL, "/api/usage/token/"), MaxConsoleBody)
	if err != nil {
		return TokenUsage{}, err
	}
	d := gjson.GetBytes(body, "data")
	if !d.IsObject() || d.Get("object").String() != "token_usage" {
		return TokenUsage{}, ErrNotOffered
	}
	u := TokenUsage{
		Name:      c.scrub.short(d.Get("name").String(), 64),
		Granted:   d.Get("total_granted").Float(),
		Used:      d.Get("total_used").Float(),
		Available: d.Get("total_available").Float(),
		Unlimited: d.Get("unlimited_quota").Bool(),
		ExpiresAt: d.Get("expires_at").Int(),
	}
	// An unlimited key's remaining figure is meaningless (new-api keeps
	// counting it down below zero); its use is still a real figure. A
	// limited key's last request may take it a little below zero.
	if !within(u.Used, 0, MaxQuota) || !u.Unlimited && (!within(u.Available, -MaxQuota, MaxQuota) || !within(u.Granted, 0, 2*MaxQuota)) {
		return TokenUsage{}, ErrImpossible
	}
	return u, nil
}

// Sub2APIRate asks sub2api's /v1/sub2api/billing what this key's group
// pays: its effective rate multiplier on the list prices.
func (c *Client) Sub2APIRate(ctx context.Context) (float64, error) {
	body, err := c.getJSON(ctx, request{method: http.MethodGet, path: "sub2api/billing"}, MaxConsoleBody)
	if err != nil {
		return 0, err
	}
	root := gjson.GetBytes(body, "data")
	if !root.IsObject() {
		root = gjson.ParseBytes(body)
	}
	for _, field := range []string{"effective_rate_multiplier", "resolved_rate_multiplier", "group_rate_multiplier"} {
		if v := root.Get(field); v.Type == gjson.Number {
			if !within(v.Float(), 0, 1e4) {
				return 0, ErrImpossible
			}
			return v.Float(), nil
		}
	}
	return 0, ErrNotOffered
}

// Sub2APISpent asks sub2api's /v1/usage what this key has been charged,
// all told, in dollars (usage.total.actual_cost: the list price times
// the group's rate): the key's own running figure, which settles the
// ledger. ErrNotOffered where the gateway does not say it.
func (c *Client) Sub2APISpent(ctx context.Context) (float64, error) {
	body, err := c.getJSON(ctx, request{method: http.MethodGet, path: "usage"}, MaxConsoleBody)
	if err != nil {
		return 0, err
	}
	v := gjson.GetBytes(body, "usage.total.actual_cost")
	if v.Type != gjson.Number {
		return 0, ErrNotOffered
	}
	if !within(v.Float(), 0, 1e9) {
		return 0, ErrImpossible
	}
	return v.Float(), nil
}

// within reports whether v is a finite number in [lo, hi].
func within(v, lo, hi float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= lo && v <= hi
}

// console is a GET of path at the root of base's origin, where a
// gateway's own pages read their figures.
func console(base, path string) request {
	r := request{method: http.MethodGet, path: path}
	if u, err := url.Parse(base); err == nil {
		r.root = u.Scheme + "://" + u.Host
	}
	return r
}

// getJSON sends r, a GET of a figure the service may not serve, and
// returns its JSON body, at most limit bytes. Anything but a JSON answer
// (a 404, a refusal, a web page) is ErrNotOffered; a service that cannot
// be reached now, or refuses the key, is returned as it is: ask later.
func (c *Client) getJSON(ctx context.Context, r request, limit int64) ([]byte, error) {
	r.overall, r.firstByte = c.cfg.FirstByteTimeout, c.cfg.FirstByteTimeout
	body, _, err := c.jsonAnswer(ctx, r, limit, "")
	if err == nil {
		return body, nil
	}
	var e *Error
	if errors.As(err, &e) && (e.Kind == KindNetwork || e.Kind == KindTimeout || e.Kind == KindRateLimited || e.Kind == KindCancelled || e.Kind == KindAuth) {
		return nil, err
	}
	return nil, ErrNotOffered
}

// MaxConsoleBody bounds a console answer: a pricing list of a few
// thousand models is well under a megabyte.
const MaxConsoleBody = 4 << 20
