package pricing

import (
	"math"
	"strings"
	"testing"
)

// #53: numbers inside the old ranges still made absurd figures. A price
// of 1e308 or below zero, a rate of 1e308, a currency with a terminal
// escape or a right-to-left override: each is refused, naming the field.
func TestAbsurdPricesAndCurrenciesAreRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		t    Table
		want string
	}{
		"price 1e308":        {Table{Models: map[string]Price{"m": {ImageOut: 1e308}}}, "the price of m"},
		"negative price":     {Table{Models: map[string]Price{"m": {TextIn: -1}}}, "the price of m"},
		"per-image +Inf":     {Table{Models: map[string]Price{"m": {PerImage: map[string]map[string]float64{"1024x1024": {"high": math.Inf(1)}}}}}, "a picture"},
		"group rate 1e308":   {Table{GroupRate: 1e308}, "group rate"},
		"key rate NaN":       {Table{KeyRates: map[string]float64{"vip": math.NaN()}}, `group "vip"`},
		"per dollar 1e9":     {Table{PerDollar: 1e9}, "units per dollar"},
		"escape in currency": {Table{Currency: "\x1b[31m$"}, "currency"},
		"RLO in currency":    {Table{Currency: "\u202eDSU"}, "currency"},
	} {
		err := tc.t.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", name, err, tc.want)
		}
	}
	ok := Table{Currency: "¥", PerDollar: 7.1, GroupRate: 0.5, KeyRates: map[string]float64{"vip": 2},
		Models: map[string]Price{"gpt-image-1": {TextIn: 5, ImageIn: 10, ImageOut: 40, PerImage: map[string]map[string]float64{"1024x1024": {"hd": 0.08}}}}}
	if err := ok.Check(); err != nil {
		t.Errorf("a real table is refused: %v", err)
	}
}
