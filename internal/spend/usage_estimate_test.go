package spend

import (
	"context"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/library"
	"easel/internal/pricing"
)

// #57: a model whose sheet gives token rates but not the output tokens a
// picture takes is not "no price set": its estimate says the rate, with
// its source and date, and what its pictures cost in the requests billed
// before.
func TestAnEstimateByUsageSaysTheRateAndWhatWasBilledBefore(t *testing.T) {
	o := api.ImageOptions{Model: "gpt-image-2", Size: "1024x1024", Quality: "high"}
	e := Options(pricing.Table{}, o, "a fox", 0, "")
	if e.Priced || e.ByUsage == nil {
		t.Fatalf("gpt-image-2: %+v", e)
	}
	if s := e.String(); !strings.HasPrefix(s, "billed by usage at $30.00 per million output tokens (") || !strings.Contains(s, "2026-09-08") {
		t.Errorf("the estimate says %q", s)
	}
	lib := openLib(t)
	ctx := context.Background()
	for _, c := range []struct {
		cost   float64
		images int
		model  string
	}{{0.40, 2, "gpt-image-2"}, {0.31, 1, "gpt-image-2"}, {5, 1, "gpt-image-1"}} {
		cost := c.cost
		if _, err := lib.Ledger().Record(ctx, library.Entry{Profile: "p", Model: c.model, Kind: library.SpendGenerate, Outcome: library.Billed,
			Cost: &cost, Images: c.images, Currency: pricing.USD}); err != nil {
			t.Fatal(err)
		}
	}
	e = WithHistory(ctx, lib.Ledger(), e)
	if e.Before == nil || e.Before.N != 2 || e.Before.Low != 0.20 || e.Before.High != 0.31 {
		t.Fatalf("what was billed before: %+v", e.Before)
	}
	if s := e.String(); !strings.HasSuffix(s, "; $0.20–$0.31 a picture in the 2 requests billed before") {
		t.Errorf("with the history: %q", s)
	}
	if priced := WithHistory(ctx, lib.Ledger(), Options(pricing.Table{}, api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high"}, "a fox", 0, "")); priced.Before != nil {
		t.Errorf("a priced model's estimate took the history: %+v", priced)
	}
}
