package pricing

import (
	"errors"
	"unicode"

	"easel/internal/capability"
	"easel/internal/catalogue"
)

// Numbers a user's file or a profile gives are bounded before they reach
// a ledger, a budget or a layout: a price of 1e308 wrote +Inf into the
// ledger, a negative one recorded negative costs, a group rate of 1e308
// printed 309 digits, and a currency holding terminal escapes and a
// right-to-left override was printed raw in every amount (#53).
const (
	// MaxPerMillion is the sheets' bound, for a profile's own prices.
	MaxPerMillion = capability.MaxPerMillion
	// MaxPerImage is the most one picture may cost: today's dearest is
	// under $1.
	MaxPerImage = 1_000
	// MaxRate bounds a group rate: gateways' run from 0.1 to 10.
	MaxRate = 1_000
	// MaxPerDollar bounds a currency's units per dollar (a yen is ~150,
	// an Indonesian rupiah ~16,000).
	MaxPerDollar = 1_000_000
	// maxCurrency is the longest currency name: a code or a symbol.
	maxCurrency = 8
)

// CleanCurrency reports whether s can be printed beside an amount: a
// short code or symbol without control or format characters.
func CleanCurrency(s string) bool {
	if len([]rune(s)) > maxCurrency {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || r == '\uFFFD' {
			return false
		}
	}
	return true
}

// Check says what in t is outside its bounds, naming the field.
func (t Table) Check() error {
	switch {
	case !CleanCurrency(t.Currency):
		return errors.New(catalogue.F("currency: %q is not a currency code or symbol", t.Currency))
	case !capability.InBounds(t.PerDollar, MaxPerDollar):
		return errors.New(catalogue.F("units per dollar: %g is outside 0–%d", t.PerDollar, MaxPerDollar))
	case !capability.InBounds(t.GroupRate, MaxRate):
		return errors.New(catalogue.F("group rate: %g is outside 0–%d", t.GroupRate, MaxRate))
	}
	for group, r := range t.KeyRates {
		if !capability.InBounds(r, MaxRate) {
			return errors.New(catalogue.F("the rate of group %q: %g is outside 0–%d", group, r, MaxRate))
		}
	}
	for model, p := range t.Models {
		if err := p.Check(); err != nil {
			return errors.New(catalogue.F("the price of %s: %v", model, err))
		}
	}
	return nil
}

// Check says what in p is outside its bounds.
func (p Price) Check() error {
	for _, v := range []float64{p.TextIn, p.ImageIn, p.ImageOut, p.TextOut} {
		if !capability.InBounds(v, MaxPerMillion) {
			return errors.New(catalogue.F("%g per million tokens is outside 0–%d", v, MaxPerMillion))
		}
	}
	for _, byQuality := range p.PerImage {
		for _, v := range byQuality {
			if !capability.InBounds(v, MaxPerImage) {
				return errors.New(catalogue.F("%g a picture is outside 0–%d", v, MaxPerImage))
			}
		}
	}
	return nil
}
