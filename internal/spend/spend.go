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
	"math"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/gateway"
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

// WithHistory is e with, for a request without a price whose model is
// billed by usage, what its pictures cost in the requests the ledger
// holds as billed: the range a designer can expect.
func WithHistory(ctx context.Context, books *library.Ledger, e pricing.Estimate) pricing.Estimate {
	if e.Priced || e.ByUsage == nil || books == nil {
		return e
	}
	low, high, n, err := books.PerPicture(ctx, e.Model, e.Currency)
	if err == nil && n > 0 {
		e.Before = &pricing.Seen{Low: low, High: high, N: n}
	}
	return e
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

// Judge is whether a request of p's key of group that ended as x was
// billed, by the billing table of the kind of gateway the key's facts
// say it is (gateway.Judge).
func (l Ledger) Judge(ctx context.Context, profile, group string, x gateway.Ending) gateway.Verdict {
	return gateway.Judge(l.kind(ctx, profile, group), x)
}

// Reword says what a refusal means for the key it came on: a 401 on a key
// the ledger shows billed within the last day has not been mistyped; its
// quota may be used up, or it expired or was switched off (new-api
// answers "Invalid token" for all of these).
func (l Ledger) Reword(ctx context.Context, profile, group string, e *api.Error) {
	if l.Books == nil || e == nil || e.Kind != api.KindAuth {
		return
	}
	if worked, _ := l.Books.HasBilled(ctx, profile, group, time.Now().Add(-24*time.Hour)); worked {
		e.Hint = catalogue.T("The gateway now refuses this key, which worked earlier today: its quota may be used up, or it expired or was switched off. Check the key on the gateway's console.")
	}
}

// kind is what the library knows the gateway in front of a key to be.
func (l Ledger) kind(ctx context.Context, profile, group string) gateway.Kind {
	if l.Books == nil {
		return gateway.Unknown
	}
	f, _, _ := l.Books.GatewayFacts(ctx, profile, group)
	return f.Kind
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
// prices its profile had when it was sent; with nil Books it writes
// nothing and still prices.
type Ledger struct {
	Books *library.Ledger
}

// Charged is what one request was written down as: its ledger entry and
// the amount it counts for, with whether that is the estimate (no usage
// reported) and whether any price was set.
type Charged struct {
	Entry     int64
	Amount    pricing.Money
	Estimated bool
	Priced    bool
	// Source is where the amount came from: the gateway's own prices
	// (library.SourceGateway), the answer's usage at the profile's
	// prices (library.SourceAnswer), or "" for the estimate.
	Source string
	// Unconfirmed: the key's gateway keeps its own running figure for
	// the key, which settles the entry later (Settle); until then the
	// amount is Easel's estimate of the bill.
	Unconfirmed bool
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
	case c.Unconfirmed:
		return catalogue.F("≈ %s, not yet confirmed by the gateway", c.Amount)
	}
	return c.Amount.String()
}

// Charge is one image request to write down.
type Charge struct {
	Prices pricing.Table
	// Profile and Group name the key it went on; Job is its id.
	Profile, Group, Job string
	Generate            *api.GenerateRequest
	Edit                *api.EditRequest
	// Result is its answer, nil when it failed or was cancelled.
	Result *api.ImageResult
	// Outcome is library.Billed, Failed or Cancelled.
	Outcome string
	// Verdict is the billing table's: a request that may have been
	// billed is written at its estimate, marked as such.
	Verdict gateway.Verdict
	// Lane is LaneBatch for a request made through the Batch API, billed
	// at its share of the live price; "" for a live one.
	Lane string
}

// LaneBatch is a request made through the Batch API.
const LaneBatch = "batch"

// BatchLane is what the Batch API charges for model's requests, from its
// capability sheet; ok is false where the sheet names no batch price.
func BatchLane(model string) (capability.Lane, bool) {
	s, ok := capability.Lookup(model)
	if !ok || s.Batch == nil {
		return capability.Lane{}, false
	}
	return *s.Batch, true
}

// InLane is est as the lane charges it, and the note that says so; est
// and "" for a live request or a model with no batch price.
func InLane(est pricing.Estimate, lane, model string) (pricing.Estimate, string) {
	l, ok := BatchLane(model)
	if lane != LaneBatch || !ok {
		return est, ""
	}
	return est.Scaled(l.Share), catalogue.F("at the Batch API's price, %d%% of the live one (%s, %s)", int(l.Share*100+0.5), l.Source, l.Date)
}

// Image records an image request that was, or may have been, billed.
// Its cost is what the gateway charges where the library holds the
// gateway's own prices for the key (its model price and the key group's
// ratio, as the gateway computes it), else the answer's usage at the
// profile's prices.
func (l Ledger) Image(ctx context.Context, c Charge) (Charged, error) {
	var facts gateway.Facts
	if l.Books != nil {
		facts, _, _ = l.Books.GatewayFacts(ctx, c.Profile, c.Group)
	}
	// The key pays its own group's rate, whatever table the job carried.
	t, gen, edit, res := c.Prices.ForKey(keyRate(c.Prices, c.Group, facts)), c.Generate, c.Edit, c.Result
	t.Gateway = facts.Prices() // an alias only the gateway prices is estimated at its price
	est := Image(t, gen, edit)
	kind, o := library.SpendGenerate, api.ImageOptions{}
	if gen != nil {
		o = gen.ImageOptions
	} else if edit != nil {
		kind, o = library.SpendEdit, edit.ImageOptions
	}
	est, laneNote := InLane(est, c.Lane, o.Model)
	e := library.Entry{Profile: c.Profile, Group: c.Group, Model: o.Model, Kind: kind, Outcome: c.Outcome, Job: c.Job, Currency: est.Currency}
	e.Options, _ = json.Marshal(o)
	if est.Priced {
		e.EstimateLow, e.EstimateHigh = &est.Low, &est.High
	}
	if c.Verdict == gateway.MayBeBilled {
		e.Billing = library.MaybeBilled
	}
	images := 0
	if res != nil {
		e.Usage, e.Images, images = res.Usage, len(res.Images), len(res.Images)
	}
	if facts.BillsAsked(o.Model) && c.Verdict == gateway.Billed && max(o.N, 1) > images {
		images = max(o.N, 1)
		e.Note = catalogue.N("the gateway bills the %d images asked, whatever came back", images, images)
	}
	e.Cost, e.Source = l.imageCost(facts, c, t, o, e.Usage, images)
	if laneNote != "" {
		if l, _ := BatchLane(o.Model); e.Cost != nil {
			cost := *e.Cost * l.Share
			e.Cost = &cost
		}
		e.Note = strings.TrimPrefix(e.Note+"; "+laneNote, "; ")
	}
	ch, err := l.record(ctx, atEstimateIfImplausible(e, est))
	ch.Unconfirmed = Settles(facts) && c.Verdict == gateway.Billed
	return ch, err
}

// imageCost is what the gateway charges where the library holds its own
// prices for the key, else the answer's usage at t's prices (for the
// images billed, where the gateway bills those asked); nil when neither
// can be worked out.
func (l Ledger) imageCost(facts gateway.Facts, c Charge, t pricing.Table, o api.ImageOptions, u *api.Usage, images int) (*float64, string) {
	if cost, ok := l.gatewayCost(facts, c, o.Model, u, images); ok {
		return &cost, library.SourceGateway
	}
	res := c.Result
	if res == nil {
		return nil, ""
	}
	cost, ok := answerCost(t, o, res)
	if !ok {
		return nil, ""
	}
	if got := len(res.Images); images > got && got > 0 {
		cost *= float64(images) / float64(got) // billed per picture asked
	}
	return &cost, library.SourceAnswer
}

// atEstimateIfImplausible is e counted at its estimate, with a note, when
// its usage or its cost is none a request could make: a service's bad
// number never reaches the ledger's sums or a budget.
func atEstimateIfImplausible(e library.Entry, est pricing.Estimate) library.Entry {
	if e.Usage != nil && e.Usage.Implausible || !plausible(e.Cost, est) {
		e.Cost, e.Source = nil, ""
		e.Note = catalogue.T("the service reported usage no request could make; counted at the estimate")
	}
	return e
}

// PlausibleFactor is how far past its estimate's top a cost may go before
// it is taken for a service's bad number, not a bill: the estimate counts
// the output tokens OpenAI publishes for the size and quality, and input
// by the prompt's length; a real cost stays well within it.
const PlausibleFactor = 10

// plausible reports whether cost can be what a request estimated at est
// cost: not negative, and not far past the estimate's top.
func plausible(cost *float64, est pricing.Estimate) bool {
	if cost == nil {
		return true
	}
	if *cost < 0 || math.IsNaN(*cost) || math.IsInf(*cost, 0) {
		return false
	}
	return !est.Priced || est.High <= 0 || *cost <= est.High*PlausibleFactor
}

// gatewayCost is what the gateway charges for the request, in the
// profile's currency, from its own prices and the key group's ratio (the
// user's own rate for the key, when set, wins).
func (l Ledger) gatewayCost(f gateway.Facts, c Charge, model string, u *api.Usage, images int) (float64, bool) {
	if c.Verdict != gateway.Billed {
		return 0, false
	}
	ratio := keyRate(c.Prices, c.Group, f)
	if ratio <= 0 {
		ratio = 1 // a group the gateway prices but lists no ratio for
	}
	q, ok := f.Quota(model, ratio, u, images)
	if !ok {
		return 0, false
	}
	return f.InCurrency(q, c.Prices.Money(0).Currency, c.Prices.PerDollarRate()), true
}

// answerCost is the answer's usage at the table's prices. A model priced
// per picture is priced at the size asked, or at the pictures' own pixels
// where those are a priced size: never at a size the answer merely claims
// (a 1x1 picture labelled 1792x1024 hd).
func answerCost(t pricing.Table, o api.ImageOptions, res *api.ImageResult) (float64, bool) {
	b := pricing.Billed{Model: o.Model, Usage: res.Usage, Images: len(res.Images), Quality: o.Quality}
	b.Size = o.Size
	if len(res.Images) > 0 && (b.Size == "" || b.Size == "auto") {
		b.Size = fmt.Sprintf("%dx%d", res.Images[0].Width, res.Images[0].Height)
	}
	if b.Quality == "" || b.Quality == "auto" {
		b.Quality = res.Quality
	}
	if b.Quality == "" || b.Quality == "auto" {
		b.Quality = "standard" // dall-e's only one, when not said
	}
	return t.Cost(b)
}

// ChatRequest records a chat request that may have been billed, with
// the usage the service reported (nil when none), on the key of group
// ("" the profile's own): priced at the rate that key pays, as an
// image request is, and settled with the key's other rows.
func (l Ledger) ChatRequest(ctx context.Context, t pricing.Table, profile, group string, req api.ChatRequest, usage *api.Usage, outcome string) (Charged, error) {
	if l.Books != nil {
		facts, _, _ := l.Books.GatewayFacts(ctx, profile, group)
		t = t.ForKey(keyRate(t, group, facts))
	}
	est, model := Chat(t, req), req.Model
	e := library.Entry{Profile: profile, Group: group, Model: model, Kind: library.SpendChat, Outcome: outcome, Usage: usage, Currency: est.Currency}
	e.Options, _ = json.Marshal(map[string]any{"messages": len(req.Messages), "max_tokens": req.MaxTokens, "temperature": req.Temperature})
	if est.Priced {
		e.EstimateLow, e.EstimateHigh = &est.Low, &est.High
	}
	if cost, ok := t.Cost(pricing.Billed{Model: model, Usage: usage}); ok {
		e.Cost, e.Source = &cost, library.SourceAnswer
	}
	return l.record(ctx, atEstimateIfImplausible(e, est))
}

func (l Ledger) record(ctx context.Context, e library.Entry) (Charged, error) {
	c := Charged{Amount: pricing.Money{Currency: e.Currency}, Source: e.Source}
	c.Amount.Amount, c.Estimated = e.Spent()
	c.Priced = e.Cost != nil || e.EstimateHigh != nil
	if l.Books == nil {
		return c, nil
	}
	id, err := l.Books.Record(ctx, e)
	c.Entry = id
	return c, err
}

// Attach records the library items a request made.
func (l Ledger) Attach(ctx context.Context, entry int64, items []int64) error {
	if l.Books == nil || entry == 0 {
		return nil
	}
	return l.Books.AttachItems(ctx, entry, items)
}

// Spent is what profile has spent today and this month (local time) in
// currency.
func (l Ledger) Spent(ctx context.Context, profile, currency string, now time.Time) (today, month float64, err error) {
	if l.Books == nil {
		return 0, 0, nil
	}
	y, m, d := now.Date()
	if today, err = l.Books.SpentSince(ctx, profile, currency, time.Date(y, m, d, 0, 0, 0, 0, now.Location())); err != nil {
		return 0, 0, err
	}
	month, err = l.Books.SpentSince(ctx, profile, currency, time.Date(y, m, 1, 0, 0, 0, 0, now.Location()))
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
	// KeyLeft, for Period "key", is what the key may still spend by the
	// gateway's own figure (read at KeyChecked): the request's estimate
	// passes it, and the gateway would refuse or overdraw.
	KeyLeft    pricing.Money
	KeyChecked time.Time
}

// PeriodKey is a Verdict's Period when the key's own limit, not a
// budget, would be passed.
const PeriodKey = "key"

// String says the verdict as the question asked before sending:
// "This would take today's spend from $1.90 to $2.57, over the daily
// cap of $2.00."
func (v Verdict) String() string {
	if !v.Over {
		return ""
	}
	if v.Period == PeriodKey {
		return catalogue.F("This key has %s left by the gateway's own figure (read %s), less than this is estimated at (up to %s).", v.KeyLeft, v.KeyChecked.Local().Format("15:04"), v.After)
	}
	month := v.Period == "this month"
	switch {
	case v.After.String() == v.Spent.String() && month:
		// "from $1.50 to $1.50" says nothing: the request adds under a cent.
		return catalogue.F("This adds under a cent to this month's spend of %s, which passes the monthly cap of %s.", v.Spent, v.Cap)
	case v.After.String() == v.Spent.String():
		return catalogue.F("This adds under a cent to today's spend of %s, which passes the daily cap of %s.", v.Spent, v.Cap)
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
// budget, given what p has spent today and this month, or the limit of
// p's key in use, by the gateway's last figure for it.
func (l Ledger) Check(ctx context.Context, p config.Profile, est pricing.Estimate, now time.Time) (Verdict, error) {
	if !est.Priced {
		return Verdict{Unpriced: p.Budget.Daily > 0 || p.Budget.Monthly > 0}, nil
	}
	if v, ok := l.keyLimit(ctx, p, est); ok {
		return v, nil
	}
	if p.Budget.Daily <= 0 && p.Budget.Monthly <= 0 {
		return Verdict{}, nil
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

// CutOff writes a job a kill or a close cut off into the ledger as
// "may have been billed", at its estimate at prices, unless the ledger
// already holds it (the process wrote its end before it stopped). It
// reports whether it wrote a row, with what it counts for.
func (l Ledger) CutOff(ctx context.Context, prices pricing.Table, j library.Journalled) (Charged, bool, error) {
	if l.Books == nil {
		return Charged{}, false, nil
	}
	if _, ok, err := l.Books.EntryOfJob(ctx, j.Job); ok || err != nil {
		return Charged{}, false, err
	}
	c, err := l.Image(ctx, Charge{Prices: prices, Profile: j.Profile, Group: j.Group, Job: j.Job,
		Generate: j.Generate, Edit: j.Edit, Outcome: library.Cancelled, Verdict: gateway.MayBeBilled})
	return c, err == nil, err
}

// keyLimit is the verdict of p's key's own limit on est, when the
// gateway reported one (an unlimited key has none).
func (l Ledger) keyLimit(ctx context.Context, p config.Profile, est pricing.Estimate) (Verdict, bool) {
	if l.Books == nil {
		return Verdict{}, false
	}
	f, ok, err := l.Books.GatewayFacts(ctx, p.ID, p.UsingGroup())
	if err != nil || !ok || f.Usage == nil {
		return Verdict{}, false
	}
	st := keyStanding(f, p)
	if st.State != Amount || st.Left.Currency != est.Currency || est.High <= st.Left.Amount {
		return Verdict{}, false
	}
	return Verdict{Over: true, Period: PeriodKey, KeyLeft: st.Left, KeyChecked: st.Checked,
		After: pricing.Money{Amount: est.High, Currency: est.Currency}}, true
}

// keyRate is the rate the key of group pays, as KeyRate finds it; 0
// where KeyRate falls back to the table's own rate.
func keyRate(t pricing.Table, group string, f gateway.Facts) float64 {
	switch r, from := KeyRate(config.Profile{Prices: t}, group, f); from {
	case RateFromGateway, RateFromSub2API, RateFromUsage:
		return r
	case RateFromUser:
		if _, own := t.KeyRate(group); own {
			return r
		}
	}
	return 0
}
