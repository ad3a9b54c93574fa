package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/chatreply"
	"easel/internal/config"
	"easel/internal/gateway"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// costFlags are what gen, edit and chat take about money: print the
// estimate and send nothing, or send though the budget would be passed.
type costFlags struct {
	estimate, overBudget bool
}

func (c *costFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.estimate, "estimate", false, catalogue.T("print what the request would cost at the profile's prices, and send nothing"))
	fs.BoolVar(&c.overBudget, "over-budget", false, catalogue.T("send even if the request would pass the profile's daily or monthly budget"))
}

// withinBudget refuses a request that would pass p's budget unless
// --over-budget says to send it anyway; the command line cannot ask.
func (m memory) withinBudget(ctx context.Context, p config.Profile, est pricing.Estimate, anyway bool) error {
	if m.lib == nil || anyway {
		return nil
	}
	v, err := spend.Ledger{Books: m.lib.Ledger()}.Check(ctx, p, est, time.Now())
	if err != nil || !v.Over {
		return nil
	}
	if v.Period == spend.PeriodKey {
		return errors.New(catalogue.F("not sent: %s Send it anyway with --over-budget, or top the key up on the gateway's console.", v))
	}
	return errors.New(catalogue.F("not sent: %s The request is estimated at %s; send it anyway with --over-budget, or change the budget in the window's Settings.", v, est.Amount()))
}

// chargeChat writes a chat request in the ledger when it may have been
// billed (a reply, whole or cut, arrived).
func (m memory) chargeChat(ctx context.Context, env Env, p config.Profile, req api.ChatRequest, res *api.ChatResult, err error, arrived bool, out time.Duration) {
	x := gateway.Ending{Err: err, Cancelled: ctx.Err() != nil, Arrived: arrived, Out: out}
	if err != nil && ctx.Err() == nil {
		chatreply.LogFailure(p.ID, req.Model, err)
	}
	if err != nil && (spend.Ledger{Books: m.lib.Ledger()}).Judge(ctx, p.ID, p.UsingGroup(), x) == gateway.NotBilled {
		return
	}
	var usage *api.Usage
	if res != nil {
		usage = res.Usage
	}
	_, lerr := spend.Ledger{Books: m.lib.Ledger()}.ChatRequest(context.WithoutCancel(ctx), p.Prices, p.ID, p.UsingGroup(), req, usage, spend.Outcome(err, ctx.Err() != nil))
	if lerr != nil {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the cost could not be written down: %v", lerr))
	}
}

// runSpend prints the ledger's totals, the window's and the command
// line's requests alike.
func runSpend(ctx context.Context, args []string, env Env) error {
	fs := newFlags("spend", env)
	by := fs.String("by", "day", catalogue.T("split the totals by day, week, month, model, profile or kind"))
	since := fs.String("since", "", catalogue.T("count from this date on (YYYY-MM-DD, local time); default: everything"))
	asCSV := fs.Bool("csv", false, catalogue.T("print the totals as CSV"))
	reconcileKey := fs.Bool("reconcile", false, catalogue.T("print the gateway's own figure for the key in use beside Easel's"))
	check := fs.Bool("check", false, catalogue.T("list the ledger entries to look at (marked, may have been billed, or corrected), each with its number"))
	correct := fs.Int64("correct", 0, catalogue.T("correct ledger entry N (its number from --check) to --amount, keeping what Easel wrote"))
	amount := fs.String("amount", "", catalogue.T("with --correct, what the entry really cost, in its currency (0: not billed)"))
	why := fs.String("why", "", catalogue.T("with --correct, why (the gateway's log, a refund), kept with the correction"))
	uncorrect := fs.Int64("uncorrect", 0, catalogue.T("take back the correction of ledger entry N"))
	asJSON := jsonFlag(fs)
	var t target
	t.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	q, err := spendQuery(env, *by, *since)
	if err != nil {
		return err
	}
	lib, err := openLedger(env)
	if err != nil {
		return err
	}
	defer lib.Close()
	switch {
	case *reconcileKey:
		return reconcile(ctx, env, lib, &t)
	case *correct != 0:
		if *amount == "" {
			return usageErr(env, catalogue.T("--correct needs --amount: what the entry really cost"))
		}
		if err := spend.Correct(ctx, lib.Ledger(), *correct, *amount, *why, time.Now()); err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, catalogue.F("Entry %d corrected; what Easel wrote is kept beside it.", *correct))
		return nil
	case *uncorrect != 0:
		if err := lib.Ledger().Uncorrect(ctx, *uncorrect); err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, catalogue.F("Entry %d counts as Easel wrote it again.", *uncorrect))
		return nil
	case *check:
		return printToCheck(ctx, env, lib, &t, q.Since)
	}
	settleBeforeTotals(ctx, env, lib, &t)
	totals, err := lib.Ledger().Spend(ctx, q)
	if err != nil {
		return err
	}
	names := profileNames(env)
	label := func(t library.Total) string {
		if q.Period != "" {
			return t.Period
		}
		if q.Group == library.ByProfile {
			if n, ok := names[t.Group]; ok {
				return n
			}
		}
		return t.Group
	}
	if *asJSON {
		return printDoc(env.Stdout, spendDocOf(*by, totals, label))
	}
	if *asCSV {
		w := csv.NewWriter(env.Stdout)
		_ = w.Write([]string{*by, "currency", "amount", "estimated", "requests", "images"})
		for _, t := range totals {
			_ = w.Write([]string{label(t), t.Currency, strconv.FormatFloat(t.Amount, 'f', 6, 64), strconv.FormatFloat(t.Estimated, 'f', 6, 64),
				strconv.Itoa(t.Requests), strconv.Itoa(t.Images)})
		}
		w.Flush()
		return w.Error()
	}
	if len(totals) == 0 {
		fmt.Fprintln(env.Stdout, catalogue.T("Nothing spent yet."))
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	sums := map[string]float64{}
	for _, t := range totals {
		m := pricing.Money{Amount: t.Amount, Currency: t.Currency}
		note := ""
		if t.Estimated > 0 {
			note = catalogue.F("(%s estimated)", pricing.Money{Amount: t.Estimated, Currency: t.Currency})
		}
		images := ""
		if t.Images > 0 {
			images = catalogue.N("%d images", t.Images, t.Images)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", label(t), m, catalogue.N("%d requests", t.Requests, t.Requests), images, note)
		sums[t.Currency] += t.Amount
	}
	var all []string
	for _, cur := range pricing.Currencies {
		if v, ok := sums[cur]; ok {
			all = append(all, pricing.Money{Amount: v, Currency: cur}.String())
		}
	}
	fmt.Fprintf(tw, "%s\t%s\t\t\t\t\n", catalogue.T("total"), strings.Join(all, " + "))
	if err := tw.Flush(); err != nil {
		return err
	}
	return printUnsure(ctx, env, lib, q.Since)
}

// spendQuery is what --by and --since ask of the ledger.
func spendQuery(env Env, by, since string) (library.SpendQuery, error) {
	q := library.SpendQuery{}
	switch by {
	case library.ByDay, library.ByWeek, library.ByMonth:
		q.Period = by
	case library.ByModel, library.ByProfile, library.ByKind:
		q.Group = by
	default:
		return q, usageErr(env, catalogue.T("--by takes day, week, month, model, profile or kind, not %q"), by)
	}
	if since != "" {
		t, err := time.ParseInLocation("2006-01-02", since, time.Local)
		if err != nil {
			return q, usageErr(env, catalogue.T("--since takes a date such as 2026-11-01, not %q"), since)
		}
		q.Since = t
	}
	return q, nil
}

// settleBeforeTotals settles the ledger of the key in use to its
// gateway's own figure, when that gateway is known to keep one (a
// service Easel has not read from before is not asked here).
func settleBeforeTotals(ctx context.Context, env Env, lib *library.Library, t *target) {
	c, p, err := t.client(ctx, env)
	if err != nil {
		return
	}
	if f, known := spend.Facts(ctx, lib.Ledger(), p, nil, time.Now()); !known || !spend.Settles(f) {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	spend.Settle(sctx, lib.Ledger(), p, c, time.Now())
}

// profileNames are the profiles' names by id, for totals by profile.
func profileNames(env Env) map[string]string {
	out := map[string]string{config.DemoID: "Demo", config.EnvironmentID: "Environment"}
	if f, err := loadProfiles(env); err == nil {
		for _, p := range f.Profiles {
			out[p.ID] = p.Name
		}
	}
	return out
}

// printToCheck lists the entries a person should look at (of --profile,
// else of every profile), numbered for --correct.
func printToCheck(ctx context.Context, env Env, lib *library.Library, t *target, since time.Time) error {
	id := ""
	if t.profile != "" {
		f, err := loadProfiles(env)
		if err != nil {
			return err
		}
		p, ok := f.Find(t.profile)
		if !ok {
			return fmt.Errorf(catalogue.T("no profile is called %q; `easel profile list` shows them"), t.profile)
		}
		id = p.ID
	}
	entries, err := lib.Ledger().ToCheck(ctx, id, since, spend.MaxToCheck)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		fmt.Fprintln(env.Stdout, catalogue.T("No ledger entry to check."))
		return nil
	}
	for _, e := range entries {
		fmt.Fprintf(env.Stdout, "%6d  %s\n", e.ID, spend.CheckLine(e))
	}
	return nil
}

// spendDocOf is `easel spend --json`: the totals, labelled as the table
// labels them, and the whole per currency.
func spendDocOf(by string, totals []library.Total, label func(library.Total) string) spendDoc {
	doc := spendDoc{jsonHead: head("spend"), By: by, Totals: []spendTotal{}, Total: []jsonMoney{}}
	sums := map[string]float64{}
	for _, t := range totals {
		doc.Totals = append(doc.Totals, spendTotal{Label: label(t), Amount: t.Amount, Currency: t.Currency, Estimated: t.Estimated,
			Requests: t.Requests, Images: t.Images})
		sums[t.Currency] += t.Amount
	}
	for _, cur := range pricing.Currencies {
		if v, ok := sums[cur]; ok {
			doc.Total = append(doc.Total, jsonMoney{Amount: v, Currency: cur})
		}
	}
	return doc
}
