package gateway

import (
	"testing"

	"easel/internal/api"
)

// newAPIFacts are the figures of a new-api gateway at its defaults:
// quota_per_unit 500,000, gpt-image-1 at ratio 2.5 ($5 a million input
// tokens, its list price), groups default ×1 and vip ×0.5, a key with
// $10 left of $12.
func newAPIFacts() Facts {
	return Facts{
		Kind:   NewAPI,
		Status: &api.GatewayStatus{QuotaPerUnit: 500000, DisplayType: "USD"},
		Pricing: &api.GatewayPricing{
			Models:     map[string]api.ModelPricing{"gpt-image-1": {ModelRatio: 2.5, CompletionRatio: 8, ImageRatio: 2}},
			GroupRatio: map[string]float64{"default": 1, "vip": 0.5},
		},
		Usage: &api.TokenUsage{Granted: 6e6, Used: 1e6, Available: 5e6},
	}
}

// The figures of the issue, each in range and none adding up (#53): the
// audit names each, and nothing it names is used.
func TestFiguresThatDoNotAddUpAreDoubtedAndNotUsed(t *testing.T) {
	if d := newAPIFacts().Audit().Doubts; len(d) != 0 {
		t.Fatalf("a gateway at its defaults doubted: %+v", d)
	}
	cases := []struct {
		name  string
		bend  func(*Facts)
		what  string
		group string
		check func(t *testing.T, f Facts)
	}{
		{"quota_per_unit 1 against list prices", func(f *Facts) { f.Status.QuotaPerUnit = 1 }, DoubtUnit, "",
			func(t *testing.T, f Facts) {
				if _, ok := f.Quota("gpt-image-1", 1, &api.Usage{InputTokens: 10, OutputTokens: 4160}, 1); ok {
					t.Error("a doubted unit still prices a request")
				}
			}},
		{"quota_per_unit 1 with no prices to weigh (one-api)", func(f *Facts) { f.Kind, f.Pricing, f.Status.QuotaPerUnit = OneAPI, nil, 1 }, DoubtUnit, "", nil},
		{"a unit 1,000 times too large", func(f *Facts) { f.Status.QuotaPerUnit = 5e8 }, DoubtUnit, "", nil},
		{"an exchange rate of a million", func(f *Facts) { f.Status.DisplayType, f.Status.ExchangeRate = "CNY", 1e6 }, DoubtExchange, "",
			func(t *testing.T, f Facts) {
				if got := f.InCurrency(500000, "CNY", 7.2); got != 7.2 {
					t.Errorf("$1 in yuan = %v, want the profile's 7.2", got)
				}
			}},
		{"a group ratio of 0", func(f *Facts) { f.Pricing.GroupRatio["vip"] = 0 }, DoubtGroup, "vip",
			func(t *testing.T, f Facts) {
				if _, ok := f.GroupRatio("vip"); ok {
					t.Error("a doubted ratio is still the group's")
				}
				if r, ok := f.GroupRatio(""); !ok || r != 1 {
					t.Errorf("the default group's sound ratio = %v, %v", r, ok)
				}
			}},
		{"sub2api at ×10,000", func(f *Facts) { *f = Facts{Kind: Sub2API, Rate: 10000} }, DoubtRate, "",
			func(t *testing.T, f Facts) {
				if _, ok := f.GroupRatio(""); ok {
					t.Error("a doubted rate is still the key's")
				}
			}},
		{"a balance a million times what was used", func(f *Facts) { f.Usage = &api.TokenUsage{Granted: 1e13 + 500, Used: 500, Available: 1e13} }, DoubtBalance, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newAPIFacts()
			c.bend(&f)
			f = f.Audit()
			if len(f.Doubts) != 1 || !f.Doubted(c.what, c.group) {
				t.Fatalf("doubts %+v, want one of %s", f.Doubts, c.what)
			}
			if c.check != nil {
				c.check(t, f)
			}
		})
	}
}

// Figures a reseller really uses are not doubted: yuan at 1:1, a group at
// ×0.1, a key that has used little of a large deposit.
func TestResellersOwnFiguresAddUp(t *testing.T) {
	f := newAPIFacts()
	f.Status.DisplayType, f.Status.ExchangeRate = "CNY", 1
	f.Pricing.GroupRatio["cheap"] = 0.1
	f.Usage = &api.TokenUsage{Granted: 5e9 + 5e5, Used: 5e5, Available: 5e9} // $10,000 left, $1 used
	if d := f.Audit().Doubts; len(d) != 0 {
		t.Fatalf("doubted %+v", d)
	}
}
