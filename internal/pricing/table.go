package pricing

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"easel/internal/catalogue"
)

// Currencies a profile can count in. A gateway (new-api, one-api) bills
// in its own "quota" units, 500,000 to the dollar unless its owner
// changed that, or shows yuan.
const (
	USD   = "USD"
	CNY   = "CNY"
	Quota = "quota"
)

// Currencies are the choices offered in Settings, in order.
var Currencies = []string{USD, CNY, Quota}

// DefaultPerDollar is how many units of a currency the list prices'
// dollar becomes until the user says otherwise: new-api's and one-api's
// QuotaPerUnit is 500,000; the yuan's rate is the one gateways' price
// pages used in 2025 (editable, as it moves).
func DefaultPerDollar(currency string) float64 {
	switch currency {
	case CNY:
		return 7.2
	case Quota:
		return 500000
	}
	return 1
}

// Table is one profile's prices: its currency, how the list prices in
// dollars convert to it, the reseller's group rate, and prices of its
// own by model that replace the list prices. The zero Table is the list
// prices in dollars.
type Table struct {
	Currency string `json:"currency,omitempty"`
	// PerDollar converts the list prices (0: DefaultPerDollar).
	PerDollar float64 `json:"per_dollar,omitempty"`
	// GroupRate multiplies every price, the gateway's "group ratio"
	// (0 means 1).
	GroupRate float64 `json:"group_rate,omitempty"`
	// Models are the profile's own prices, in its currency, by model id
	// as the service names it.
	Models map[string]Price `json:"models,omitempty"`
	// KeyRates are the user's own group rates for the profile's keys,
	// by the key's account group ("" its own key): each key of a gateway
	// pays its group's ratio. A key without one pays the ratio the
	// gateway publishes for its group.
	KeyRates map[string]float64 `json:"key_rates,omitempty"`
	// Gateway are the prices the key's gateway publishes, in dollars, for
	// the models neither the list nor the profile prices (an alias, a
	// model of its own): read from its console, never saved with the
	// profile.
	Gateway map[string]Price `json:"-"`
}

// KeyRate is the user's own rate for the key of group; ok is false when
// none is set.
func (t Table) KeyRate(group string) (float64, bool) {
	r, ok := t.KeyRates[group]
	return r, ok && r > 0
}

// ForKey is the table for one key: its group's rate in place of the
// profile's.
func (t Table) ForKey(rate float64) Table {
	if rate > 0 {
		t.GroupRate = rate
	}
	return t
}

// currency is the table's currency, USD when unset.
func (t Table) currency() string {
	if t.Currency == "" {
		return USD
	}
	return t.Currency
}

// rate is the group rate, 1 when unset.
func (t Table) rate() float64 {
	if t.GroupRate <= 0 {
		return 1
	}
	return t.GroupRate
}

// perDollar is the list prices' conversion, its default when unset.
func (t Table) perDollar() float64 {
	if t.PerDollar <= 0 {
		return DefaultPerDollar(t.currency())
	}
	return t.PerDollar
}

// PerDollarRate is how many units of the table's currency a list
// price's dollar becomes.
func (t Table) PerDollarRate() float64 { return t.perDollar() }

// Lookup is model's price in the table's currency, group rate applied:
// the list price converted, with each figure the profile sets of its own
// in its place (a gateway that charges its own price per picture keeps
// the list's token prices for the rest). Own says the profile set any.
func (t Table) Lookup(model string) (p Price, own, ok bool) {
	mp, own := t.Models[model]
	lp, listed := Lookup(model)
	switch {
	case own && listed:
		return scale(merge(scale(lp, t.perDollar()), mp), t.rate()), true, true
	case own:
		return scale(mp, t.rate()), true, true
	case listed:
		return scale(lp, t.perDollar()*t.rate()), false, true
	}
	if gp, ok := t.Gateway[model]; ok {
		return scale(gp, t.perDollar()*t.rate()), false, true
	}
	return Price{}, false, false
}

// merge is base with every figure own sets in its place.
func merge(base, own Price) Price {
	for _, f := range []struct {
		dst *float64
		v   float64
	}{
		{&base.TextIn, own.TextIn}, {&base.ImageIn, own.ImageIn}, {&base.ImageOut, own.ImageOut}, {&base.TextOut, own.TextOut},
	} {
		if f.v > 0 {
			*f.dst = f.v
		}
	}
	if len(own.PerImage) > 0 {
		sized := map[string]map[string]float64{}
		for _, src := range []map[string]map[string]float64{base.PerImage, own.PerImage} {
			for size, byQ := range src {
				if sized[size] == nil {
					sized[size] = map[string]float64{}
				}
				for q, v := range byQ {
					sized[size][q] = v
				}
			}
		}
		base.PerImage = sized
	}
	base.Source, base.Date = "", ""
	return base
}

// scale multiplies every figure of p by k, on a copy.
func scale(p Price, k float64) Price {
	p.TextIn, p.ImageIn, p.ImageOut, p.TextOut, p.PerCall = p.TextIn*k, p.ImageIn*k, p.ImageOut*k, p.TextOut*k, p.PerCall*k
	if p.PerImage != nil {
		sized := make(map[string]map[string]float64, len(p.PerImage))
		for size, byQ := range p.PerImage {
			q := make(map[string]float64, len(byQ))
			for k2, v := range byQ {
				q[k2] = v * k
			}
			sized[size] = q
		}
		p.PerImage = sized
	}
	return p
}

// Money is an amount in a currency, written as a designer reads it.
type Money struct {
	Amount   float64
	Currency string
}

// Money is v in the table's currency.
func (t Table) Money(v float64) Money { return Money{Amount: v, Currency: t.currency()} }

// String writes the amount: "$0.17", "$0.004" under a cent, "¥1.22",
// "85,000 quota".
func (m Money) String() string {
	if !Sane(m.Amount) {
		return catalogue.T("an impossible amount")
	}
	switch m.Currency {
	case CNY:
		if m.Amount > 0 && m.Amount < 0.01 {
			return fmt.Sprintf("¥%.3f", m.Amount)
		}
		return "¥" + twoPlaces(m.Amount)
	case Quota:
		return catalogue.F("%s quota", groupThousands(int64(math.Round(m.Amount))))
	case USD, "":
		return Dollars(m.Amount)
	}
	return fmt.Sprintf("%.2f %s", m.Amount, m.Currency)
}

// MaxAmount bounds any amount Easel writes out: a trillion of any unit is
// no designer's bill, balance or budget, and a label that holds more would
// widen the window.
const MaxAmount = 1e12

// Sane reports whether v is an amount that can be shown: finite and
// within MaxAmount either way.
func Sane(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) < MaxAmount }

// Dollars writes an amount as a designer reads it: cents to two places,
// less than a cent to three.
func Dollars(v float64) string {
	if !Sane(v) {
		return catalogue.T("an impossible amount")
	}
	if v > 0 && v < 0.01 {
		return fmt.Sprintf("$%.3f", v)
	}
	return "$" + twoPlaces(v)
}

// twoPlaces writes v to the cent with commas between thousands.
func twoPlaces(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	whole, cents, _ := strings.Cut(s, ".")
	if n, err := strconv.ParseInt(whole, 10, 64); err == nil && (n >= 1000 || n <= -1000) {
		whole = groupThousands(n)
	}
	return whole + "." + cents
}

// groupThousands writes n with commas between thousands.
func groupThousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
