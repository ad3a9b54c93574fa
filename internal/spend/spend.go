// Package spend is what Easel's requests cost, kept and capped: it
// prices a request before it is sent the same way for the window and the
// command line (so their estimates agree), writes each request that may
// have been billed into the library's ledger at the profile's prices,
// and says before sending whether a request or a batch would pass the
// profile's daily or monthly budget. It knows nothing of windows.
package spend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/pricing"
)

// Image is the estimate of an image request at table's prices: the one
// figure the window shows under its send button and `easel gen
// --estimate` prints.
func Image(t pricing.Table, gen *api.GenerateRequest, edit *api.EditRequest) pricing.Estimate {
	switch {
	case gen != nil:
		return Options(t, gen.ImageOptions, gen.Prompt, 0, "")
	case edit != nil:
		return Options(t, edit.ImageOptions, edit.Prompt, len(edit.Images), edit.InputFidelity)
	}
	return pricing.Estimate{}
}

// Options is the estimate of an image request with options o, prompt,
// and inputs reference images sent at fidelity (an edit's; 0 for a
// generation), before the request is built: what the form shows as its
// options change.
func Options(t pricing.Table, o api.ImageOptions, prompt string, inputs int, fidelity string) pricing.Estimate {
	return t.Images(o, len([]rune(prompt)), inputs, fidelity == "high")
}

// imageChars is what the chat estimate counts an attached image as:
// about 85 tokens, a picture seen at low detail.
const imageChars = 85 * 4

// Chat is the estimate of a chat request: its messages as sent (about
// four characters to a token, images at low detail), the reply up to
// its MaxTokens or a long one.
func Chat(t pricing.Table, req api.ChatRequest) pricing.Estimate {
	chars, maxReply := 0, 0
	for _, m := range req.Messages {
		chars += len([]rune(m.Content)) + imageChars*len(m.Images)
	}
	if req.MaxTokens != nil {
		maxReply = *req.MaxTokens
	}
	return t.Chat(req.Model, chars, maxReply)
}

// BilledAfter is how long a request must have been out before a cancel
// counts as possibly billed: the service has begun and will not stop.
const BilledAfter = 5 * time.Second

// MayHaveBilled says whether a request that ended in err may have been
// charged for: the service had begun (something arrived, or it was at
// work for BilledAfter before a cancel), or it failed in a way that
// happens only after it began (a time-out, a cut answer, an unusable
// one). A refusal (a bad key, a bad request, no balance, a rate limit)
// is not billed. cancelled says the caller cancelled; arrived, that
// previews or text had come; out, how long the request was out.
func MayHaveBilled(err error, cancelled, arrived bool, out time.Duration) bool {
	var ae *api.Error
	if !errors.As(err, &ae) {
		return arrived
	}
	if ae.Kind == api.KindCancelled || cancelled {
		return arrived || out >= BilledAfter
	}
	switch ae.Kind {
	case api.KindTimeout, api.KindCutOff, api.KindBadResponse:
		return true
	}
	return arrived
}

// Outcome is the ledger's word for how a request that ended in err
// ended.
func Outcome(err error, cancelled bool) string {
	var ae *api.Error
	switch {
	case err == nil:
		return library.Billed
	case cancelled || errors.As(err, &ae) && ae.Kind == api.KindCancelled:
		return library.Cancelled
	}
	return library.Failed
}

// Ledger writes what requests cost into the library, each at the
// prices its profile had when it was sent; a nil Lib writes nothing and
// still prices.
type Ledger struct {
	Lib *library.Library
}

// Charged is what one request was written down as: its ledger entry and
// the amount it counts for, with whether that is the estimate (no usage
// reported) and whether any price was set.
type Charged struct {
	Entry     int64
	Amount    pricing.Money
	Estimated bool
	Priced    bool
}

// String says the amount as a card shows it: "$0.17", "≈ $0.17
// (estimated: the service reported no usage)", or "" when no price is
// set.
func (c Charged) String() string {
	switch {
	case !c.Priced:
		return ""
	case c.Estimated:
		return catalogue.F("≈ %s (estimated: the service reported no usage)", c.Amount)
	}
	return c.Amount.String()
}

// ImageRequest records an image request that may have been billed: res
// is its answer (nil when it failed or was cancelled); outcome is
// library.Billed, Failed or Cancelled.
func (l Ledger) ImageRequest(ctx context.Context, t pricing.Table, profile, job string, gen *api.GenerateRequest, edit *api.EditRequest, res *api.ImageResult, outcome string) (Charged, error) {
	est := Image(t, gen, edit)
	kind, o := library.SpendGenerate, api.ImageOptions{}
	if gen != nil {
		o = gen.ImageOptions
	} else if edit != nil {
		kind, o = library.SpendEdit, edit.ImageOptions
	}
	e := library.Entry{Profile: profile, Model: o.Model, Kind: kind, Outcome: outcome, Job: job, Currency: est.Currency}
	e.Options, _ = json.Marshal(o)
	if est.Priced {
		e.EstimateLow, e.EstimateHigh = &est.Low, &est.High
	}
	if res != nil {
		e.Usage, e.Images = res.Usage, len(res.Images)
		b := pricing.Billed{Model: o.Model, Usage: res.Usage, Images: len(res.Images), Quality: o.Quality}
		if res.Size != "" {
			b.Size = res.Size
		} else if len(res.Images) > 0 {
			b.Size = fmt.Sprintf("%dx%d", res.Images[0].Width, res.Images[0].Height)
		}
		if res.Quality != "" {
			b.Quality = res.Quality
		}
		if b.Quality == "" || b.Quality == "auto" {
			b.Quality = "standard" // dall-e's only one, when not said
		}
		if cost, ok := t.Cost(b); ok {
			e.Cost = &cost
		}
	}
	return l.record(ctx, e)
}

// ChatRequest records a chat request that may have been billed, with
// the usage the service reported (nil when none).
func (l Ledger) ChatRequest(ctx context.Context, t pricing.Table, profile string, req api.ChatRequest, usage *api.Usage, outcome string) (Charged, error) {
	est, model := Chat(t, req), req.Model
	e := library.Entry{Profile: profile, Model: model, Kind: library.SpendChat, Outcome: outcome, Usage: usage, Currency: est.Currency}
	e.Options, _ = json.Marshal(map[string]any{"messages": len(req.Messages), "max_tokens": req.MaxTokens, "temperature": req.Temperature})
	if est.Priced {
		e.EstimateLow, e.EstimateHigh = &est.Low, &est.High
	}
	if cost, ok := t.Cost(pricing.Billed{Model: model, Usage: usage}); ok {
		e.Cost = &cost
	}
	return l.record(ctx, e)
}

func (l Ledger) record(ctx context.Context, e library.Entry) (Charged, error) {
	c := Charged{Amount: pricing.Money{Currency: e.Currency}}
	c.Amount.Amount, c.Estimated = e.Spent()
	c.Priced = e.Cost != nil || e.EstimateHigh != nil
	if l.Lib == nil {
		return c, nil
	}
	id, err := l.Lib.Record(ctx, e)
	c.Entry = id
	return c, err
}

// Attach records the library items a request made.
func (l Ledger) Attach(ctx context.Context, entry int64, items []int64) error {
	if l.Lib == nil || entry == 0 {
		return nil
	}
	return l.Lib.AttachItems(ctx, entry, items)
}

// Spent is what profile has spent today and this month (local time) in
// currency.
func (l Ledger) Spent(ctx context.Context, profile, currency string, now time.Time) (today, month float64, err error) {
	if l.Lib == nil {
		return 0, 0, nil
	}
	y, m, d := now.Date()
	if today, err = l.Lib.SpentSince(ctx, profile, currency, time.Date(y, m, d, 0, 0, 0, 0, now.Location())); err != nil {
		return 0, 0, err
	}
	month, err = l.Lib.SpentSince(ctx, profile, currency, time.Date(y, m, 1, 0, 0, 0, 0, now.Location()))
	return today, month, err
}

// Verdict is what a request or a batch would do to a budget.
type Verdict struct {
	// Over says it would pass a cap; Period is "today" or "this month",
	// the first cap it passes.
	Over   bool
	Period string
	// Spent is what was spent in that period, After what it would come
	// to (the estimate's top), Cap the cap.
	Spent, After, Cap pricing.Money
	// Unpriced says the request has no price, so the budget cannot
	// count it: it is let through, and the card says so.
	Unpriced bool
}

// String says the verdict as the question asked before sending:
// "This would take today's spend from $1.90 to $2.57, over the daily
// cap of $2.00."
func (v Verdict) String() string {
	if !v.Over {
		return ""
	}
	month := v.Period == "this month"
	switch {
	case v.After.String() == v.Cap.String() && month:
		return catalogue.F("This would take this month's spend from %s to just past the monthly cap of %s.", v.Spent, v.Cap)
	case v.After.String() == v.Cap.String():
		return catalogue.F("This would take today's spend from %s to just past the daily cap of %s.", v.Spent, v.Cap)
	case month:
		return catalogue.F("This would take this month's spend from %s to %s, over the monthly cap of %s.", v.Spent, v.After, v.Cap)
	}
	return catalogue.F("This would take today's spend from %s to %s, over the daily cap of %s.", v.Spent, v.After, v.Cap)
}

// Check says whether est (one request, or a batch's sum) would pass p's
// budget, given what p has spent today and this month.
func (l Ledger) Check(ctx context.Context, p config.Profile, est pricing.Estimate, now time.Time) (Verdict, error) {
	if p.Budget.Daily <= 0 && p.Budget.Monthly <= 0 {
		return Verdict{}, nil
	}
	if !est.Priced {
		return Verdict{Unpriced: true}, nil
	}
	cur := est.Currency
	today, month, err := l.Spent(ctx, p.ID, cur, now)
	if err != nil {
		return Verdict{}, err
	}
	money := func(v float64) pricing.Money { return pricing.Money{Amount: v, Currency: cur} }
	if c := p.Budget.Daily; c > 0 && today+est.High > c+1e-9 {
		return Verdict{Over: true, Period: "today", Spent: money(today), After: money(today + est.High), Cap: money(c)}, nil
	}
	if c := p.Budget.Monthly; c > 0 && month+est.High > c+1e-9 {
		return Verdict{Over: true, Period: "this month", Spent: money(month), After: money(month + est.High), Cap: money(c)}, nil
	}
	return Verdict{}, nil
}
