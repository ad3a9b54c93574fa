package spend

import (
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/gateway"
	"easel/internal/library"
	"easel/internal/pricing"
)

// The spend view's list and `easel spend --check` say what the gateway's
// figure settled an entry at beside what Easel wrote, and how many
// requests shared the readings.
func TestACheckLineSaysWhatTheGatewaySettled(t *testing.T) {
	cost, settled := 0.25, 0.96
	e := library.Entry{At: time.Date(2026, 11, 28, 9, 5, 0, 0, time.UTC), Model: "gpt-image-1", Cost: &cost, Currency: "USD",
		Settled: &settled, SettledWith: 1}
	line := CheckLine(e)
	if !strings.Contains(line, "counts $0.96") || !strings.Contains(line, "settles it at $0.96, where Easel wrote $0.25") {
		t.Errorf("%q", line)
	}
	e.SettledWith = 3
	if line := CheckLine(e); !strings.Contains(line, "its share of 3 requests") {
		t.Errorf("%q", line)
	}
}

// #54: a killed job on a model only the gateway prices (an alias) was
// written at $0.00; it is written at its estimate at the gateway's own
// price, per picture asked for a model priced per call.
func TestAnAliasIsEstimatedAtTheGatewaysPrice(t *testing.T) {
	lib := openLib(t)
	ctx := t.Context()
	f := gateway.Facts{Kind: gateway.NewAPI, Status: &api.GatewayStatus{QuotaPerUnit: 500000}, Checked: time.Now(),
		Pricing: &api.GatewayPricing{Models: map[string]api.ModelPricing{
			"image-fast": {ModelRatio: 2.5, CompletionRatio: 8, ImageRatio: 2},
			"image-flat": {PerCall: true, ModelPrice: 0.04},
		}, GroupRatio: map[string]float64{"default": 1}}}
	if err := lib.Ledger().SetGatewayFacts(ctx, "p", "default", f); err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string]float64{"image-fast": 4160 * 40.0 / 1e6, "image-flat": 2 * 0.04} {
		gen := &api.GenerateRequest{Prompt: "a fox", ImageOptions: api.ImageOptions{Model: model, Size: "1024x1024", Quality: "high", N: 2}}
		if model == "image-fast" {
			gen.N = 1
		}
		c, err := Ledger{Books: lib.Ledger()}.Image(ctx, Charge{Profile: "p", Group: "default", Generate: gen, Outcome: library.Cancelled, Verdict: gateway.MayBeBilled})
		if err != nil {
			t.Fatal(err)
		}
		if !c.Priced || c.Amount.Amount < want || c.Amount.Amount > want*1.01 {
			t.Errorf("%s killed: %+v, want ≈ $%.4f", model, c, want)
		}
	}
}

// The verdict names why Easel's figure for a key and the gateway's
// differ: requests the figure has not settled yet, Easel counting more,
// or the gateway counting the key's use elsewhere; a difference is an
// amount, never a negative one.
func TestTheVerdictNamesWhyTheFiguresDiffer(t *testing.T) {
	usd := func(v float64) pricing.Money { return pricing.Money{Amount: v, Currency: pricing.USD} }
	r := Reconciliation{Billed: usd(0.08), Gateway: usd(0.06), HasGateway: true, unit: 0.000002}
	for _, c := range []struct {
		waiting int
		gateway float64
		want    string
	}{
		{3, 0.06, "They differ by $0.02: 3 of Easel's requests for this key are not yet settled"},
		{1, 0.06, "1 of Easel's requests for this key is not yet settled"},
		{0, 0.06, "Easel counts $0.02 more than the gateway"},
		{0, 0.10, "The gateway counts $0.02 more: it counts what the key spent since it was made"},
		{0, 0.08, "They agree."},
	} {
		r.Waiting, r.Gateway = c.waiting, usd(c.gateway)
		if got := r.Verdict(); !strings.Contains(got, c.want) || strings.Contains(got, "$-") {
			t.Errorf("%d waiting, gateway $%.2f: %q", c.waiting, c.gateway, got)
		}
	}
}
