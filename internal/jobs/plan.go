package jobs

import (
	"context"
	"time"

	"easel/internal/config"
	"easel/internal/honesty"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// Plan is what is known of a request before it is sent, read once, for
// the window and the command line alike: the values its service refused
// before for its model, whether its n images should go as n requests of
// one, what the service is known not to do (Advice), what it will cost
// at the prices its key pays, and the budget's word on that. The window
// asks its questions from it (one straight goroutine: ui/room), the
// command line turns them into refusals and notes, and the runner shapes
// the request by the same Advice without reading the memory again.
type Plan struct {
	Advice   honesty.Advice
	Estimate pricing.Estimate
	Verdict  spend.Verdict
}

// Stores are what a plan reads: the ledger (the estimate's history, the
// budget, the gateway's figures) and the memory of what the service
// honours. *library.Library has both; a nil one, or nil stores, is no
// gallery. (spend.Ledger's Books is the ledger alone.)
type Stores interface {
	Ledger() *library.Ledger
	Memory() *library.Memory
}

// ReadPlan reads the plan of reqs, sent together (a batch is judged
// whole), on profile p's key in use: the memory is read for the first
// request's model and endpoint. Without a gallery only the estimate is
// known, at the profile's prices. An error reading the memory or the
// ledger leaves that part of the plan empty (nothing refused, within the
// budget) and is returned beside it: a plan never stops a request the
// user asked for by itself failing.
func ReadPlan(ctx context.Context, stores Stores, p config.Profile, reqs ...Request) (Plan, error) {
	var plan Plan
	if len(reqs) == 0 {
		return plan, nil
	}
	var ledger *library.Ledger
	var memory *library.Memory
	if stores != nil {
		ledger, memory = stores.Ledger(), stores.Memory()
	}
	table := p.Prices
	if ledger != nil {
		f, _, _ := ledger.GatewayFacts(ctx, p.ID, p.UsingGroup())
		table = spend.KeyTable(p, f)
	}
	for i, r := range reqs {
		est, _ := spend.InLane(spend.Image(table, r.Generate, r.Edit), r.Lane, r.Options().Model)
		if i == 0 {
			plan.Estimate = est
		} else {
			plan.Estimate = plan.Estimate.Plus(est)
		}
	}
	if ledger == nil || memory == nil {
		return plan, nil
	}
	plan.Estimate = spend.WithHistory(ctx, ledger, plan.Estimate)
	first := reqs[0]
	o, edit := first.Options(), first.Edit != nil
	known, err := memory.Known(ctx, library.KeyFor(p.ID, p.UsingGroup(), o.Model, edit))
	if err == nil {
		plan.Advice = honesty.Advise(known, o, edit, edit && first.Edit.Mask != nil)
	}
	verdict, verr := spend.Ledger{Books: ledger}.Check(ctx, p, plan.Estimate, time.Now())
	if verr == nil {
		plan.Verdict = verdict
	}
	if err == nil {
		err = verr
	}
	return plan, err
}
