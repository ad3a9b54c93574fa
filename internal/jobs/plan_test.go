package jobs_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
)

// The plan is what the window asks from and the command line refuses
// and splits by: read once, from the memory of the key's service and
// the ledger, with the estimate at the prices the key pays.
func TestAPlanSaysWhatIsKnownBeforeSending(t *testing.T) {
	lib, err := library.Open(filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	ctx := context.Background()
	p := config.Profile{ID: "p-plan", Budget: config.Budget{Daily: 1}}
	spent := 0.9
	if _, err := lib.Ledger().Record(ctx, library.Entry{Profile: p.ID, Model: "gpt-image-1", Kind: library.SpendGenerate,
		Outcome: library.Billed, Cost: &spent, Currency: pricing.USD}); err != nil {
		t.Fatal(err)
	}
	if err := lib.Memory().Learn(ctx, library.KeyFor(p.ID, "", "gpt-image-1", false), []honesty.Check{
		{Trait: honesty.Count, Honoured: false, Asked: "4", Got: "1"},
		{Trait: honesty.Stream, Honoured: false, Asked: "stream", Got: "json"},
	}, time.Now()); err != nil {
		t.Fatal(err)
	}
	req := jobs.Request{Generate: &api.GenerateRequest{Prompt: "a lighthouse", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high", N: 4, Stream: true}}}
	plan, err := jobs.ReadPlan(ctx, lib, p, req)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Advice.Split || !plan.Advice.Unstream || !plan.Estimate.Priced {
		t.Errorf("advice %+v, estimate %+v", plan.Advice, plan.Estimate)
	}
	if !plan.Verdict.Over || plan.Verdict.Period != "today" {
		t.Errorf("four high squares on $0.90 of a $1.00 day: %+v", plan.Verdict)
	}
	// Without a gallery, only the estimate is known.
	if bare, err := jobs.ReadPlan(ctx, nil, p, req); err != nil || bare.Advice.Split || bare.Verdict.Over || bare.Estimate != plan.Estimate {
		t.Errorf("without a gallery: %+v, %v", bare, err)
	}
}
