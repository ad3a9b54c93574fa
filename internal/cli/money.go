package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// runBalance prints what the window's status bar says of the profile's
// money, and where each figure came from.
func runBalance(ctx context.Context, args []string, env Env) error {
	var t target
	fs := newFlags("balance", env)
	asJSON := jsonFlag(fs)
	t.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	c, p, err := t.client(ctx, env)
	if err != nil {
		return err
	}
	lib, err := openLedger(env)
	if err != nil {
		return err
	}
	defer lib.Close()
	now := time.Now()
	spend.FreshUsage(ctx, lib.Ledger(), p, c, now)
	st, berr := spend.Balance(ctx, lib.Ledger(), p, c, now)
	sum, err := spend.Summarise(ctx, lib.Ledger(), p, st, now)
	if err != nil {
		return err
	}
	f, _ := spend.Facts(ctx, lib.Ledger(), p, nil, now)
	rate, from := spend.KeyRate(p, p.UsingGroup(), f)
	rateLine := catalogue.F("%s: group rate ×%s (%s).", spend.KeyLabel(p.UsingGroup()), spend.FormatRate(rate), spend.RateSourceText(from))
	if *asJSON {
		doc := balanceDoc{jsonHead: head("balance"), State: stateName(st.State), Source: st.Source, Today: *money(sum.Today),
			Rate: jsonRate{Group: p.UsingGroup(), Value: rate, Source: from, Text: rateLine}, Text: st.Explain()}
		if st.State == spend.Amount {
			doc.Left = money(st.Left)
		}
		if !st.Checked.IsZero() {
			doc.Checked = &st.Checked
		}
		if sum.DailyCap > 0 {
			doc.DailyCap = &jsonMoney{Amount: sum.DailyCap, Currency: sum.Currency}
		}
		if err := printDoc(env.Stdout, doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(env.Stdout, sum.String())
		fmt.Fprintln(env.Stdout, st.Explain())
		fmt.Fprintln(env.Stdout, rateLine)
	}
	if berr != nil {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the service could not be asked now, so these are its last figures: %v", berr))
	}
	return nil
}

// openLedger opens the gallery's library, where the ledger is.
func openLedger(env Env) (*library.Library, error) {
	if env.Library == "" {
		return nil, errors.New(catalogue.T("no gallery folder, so no ledger to read"))
	}
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("cannot read the ledger: %w"), err)
	}
	return lib, nil
}

// runJobs lists the command line's requests a kill cut off, each with the
// command that sends it again; --clear forgets them.
func runJobs(ctx context.Context, args []string, env Env) error {
	fs := newFlags("jobs", env)
	clear := fs.Bool("clear", false, catalogue.T("forget the requests listed (their ledger rows stay)"))
	wait := fs.String("wait", "", catalogue.T("follow the batch with this id until it is done, bringing its pictures into the gallery"))
	cancel := fs.String("cancel", "", catalogue.T("cancel the batch with this id at the service; what it finished is brought in"))
	asJSON := jsonFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	lib, err := openLedger(env)
	if err != nil {
		return err
	}
	defer lib.Close()
	if *wait != "" || *cancel != "" {
		return waitBatch(ctx, env, lib, *wait+*cancel, *cancel != "")
	}
	if !*asJSON && !*clear {
		if err := listBatches(ctx, env, lib); err != nil {
			return err
		}
	}
	cut, err := lib.Journal().CutOff(ctx)
	if err != nil {
		return err
	}
	if *asJSON && !*clear {
		return printDoc(env.Stdout, jobsDocOf(ctx, lib, cut, env))
	}
	if len(cut) == 0 {
		fmt.Fprintln(env.Stdout, catalogue.T("No request was cut off."))
		return nil
	}
	if *clear {
		return forget(ctx, env, lib, cut)
	}
	profiles, _ := loadProfiles(env)
	for _, j := range cut {
		p, _ := profiles.Find(j.Profile)
		sayCutOff(ctx, env, lib, p, j)
	}
	return nil
}

// forget crosses the requests listed out of the journal.
func forget(ctx context.Context, env Env, lib *library.Library, cut []library.Journalled) error {
	for _, j := range cut {
		if err := lib.Journal().End(ctx, j.Job); err != nil {
			return err
		}
	}
	fmt.Fprintln(env.Stdout, catalogue.N("%d requests forgotten.", len(cut), len(cut)))
	return nil
}

// sayCutOff lists one request a kill cut off or a batch did not make:
// when, what, what it may have cost, why the batch left it, and the
// command that sends again what had not arrived.
func sayCutOff(ctx context.Context, env Env, lib *library.Library, p config.Profile, j library.Journalled) {
	amount := ""
	if e, ok, _ := lib.Ledger().EntryOfJob(ctx, j.Job); ok {
		v, _ := e.Spent()
		amount = catalogue.F("may have been charged ≈ %s", pricing.Money{Amount: v, Currency: e.Currency})
	}
	fmt.Fprintf(env.Stdout, "%s  %s  %q  %s\n", j.Started.Local().Format("2006-01-02 15:04"), j.Job, promptOf(j), amount)
	if j.Owner == library.OwnerBatch {
		if batch, why := lib.Journal().Batches().LeftBy(ctx, j.Job); batch != "" {
			fmt.Fprintf(env.Stdout, "  %s\n", catalogue.F("not made by batch %s: %s", batch, why))
		}
	}
	asked := max(1, j.Options().N)
	rest := asked - len(j.Arrived)
	if len(j.Arrived) > 0 {
		fmt.Fprintf(env.Stdout, "  %s\n", catalogue.N("%[1]d of %[2]d images arrived before it was cut off: paid for, they are in the folder it wrote to, and the window puts them in the gallery at its next start. The rest:",
			len(j.Arrived), len(j.Arrived), asked))
	}
	if rest > 0 {
		fmt.Fprintf(env.Stdout, "  %s\n", retryCommand(p, j, rest))
	}
}

// retryCommand is the command line that sends n images of a cut-off
// request again: all of them, or those that had not arrived.
func retryCommand(p config.Profile, j library.Journalled, n int) string {
	if j.Edit != nil {
		return catalogue.T("(an edit: the window lists it with Retry at its next start)")
	}
	o := j.Generate.ImageOptions
	parts := []string{"easel gen"}
	add := func(flag, v string) {
		if v != "" {
			parts = append(parts, "--"+flag, shellQuote(v))
		}
	}
	if p.Name != "" {
		add("profile", p.Name)
	}
	add("group", j.Group)
	add("model", o.Model)
	add("prompt", j.Generate.Prompt)
	add("size", o.Size)
	add("quality", o.Quality)
	add("background", o.Background)
	add("format", o.OutputFormat)
	if n > 1 {
		add("n", fmt.Sprint(n))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printUnsure lists the requests that may have been billed, apart from
// the totals they are counted in.
func printUnsure(ctx context.Context, env Env, lib *library.Library, since time.Time) error {
	unsure, err := lib.Ledger().Unsure(ctx, since)
	if err != nil || len(unsure) == 0 {
		return err
	}
	fmt.Fprintln(env.Stdout, catalogue.T("May have been billed (counted at their estimates until the gateway's figures say otherwise):"))
	for _, e := range unsure {
		v, _ := e.Spent()
		fmt.Fprintf(env.Stdout, "  %s  %s  %s  %s  ≈ %s\n", e.At.Local().Format("2006-01-02 15:04"), e.Model, e.Kind, e.Outcome, pricing.Money{Amount: v, Currency: e.Currency})
	}
	return nil
}

// reconcile prints Easel's figure for the key in use beside the
// gateway's own, and how they compare.
func reconcile(ctx context.Context, env Env, lib *library.Library, t *target) error {
	c, p, err := t.client(ctx, env)
	if err != nil {
		return err
	}
	r, err := spend.Reconcile(ctx, lib.Ledger(), p, c, time.Now())
	if err != nil {
		return err
	}
	for _, line := range r.Lines() {
		fmt.Fprintln(env.Stdout, line)
	}
	return nil
}

// stateName is a balance's state as --json writes it.
func stateName(s spend.State) string {
	switch s {
	case spend.Amount:
		return "amount"
	case spend.Unlimited:
		return "unlimited"
	case spend.Impossible:
		return "impossible"
	case spend.Doubtful:
		return "doubtful"
	}
	return "none"
}

// jobsDocOf is `easel jobs --json`: each request a kill cut off.
func jobsDocOf(ctx context.Context, lib *library.Library, cut []library.Journalled, env Env) jobsDoc {
	profiles, _ := loadProfiles(env)
	doc := jobsDoc{jsonHead: head("jobs"), Jobs: []jsonCutOff{}, Batches: []jsonBatch{}}
	pending, _ := lib.Journal().Batches().Pending(ctx)
	for _, b := range pending {
		doc.Batches = append(doc.Batches, jsonBatch{ID: b.ID, Profile: b.Profile, Label: b.Label, Status: b.Status, Total: b.Total,
			Completed: b.Completed, Failed: b.Failed, Created: b.Created})
	}
	for _, j := range cut {
		o := j.Options()
		c := jsonCutOff{Job: j.Job, Profile: j.Profile, Started: j.Started, Kind: "generate", Prompt: promptOf(j), Model: o.Model,
			Asked: max(1, o.N), Arrived: len(j.Arrived)}
		if j.Edit != nil {
			c.Kind = "edit"
		}
		if e, ok, _ := lib.Ledger().EntryOfJob(ctx, j.Job); ok {
			v, _ := e.Spent()
			c.MayHaveCost = &jsonMoney{Amount: v, Currency: e.Currency}
		}
		if j.Owner == library.OwnerBatch {
			c.Batch, c.Left = lib.Journal().Batches().LeftBy(ctx, j.Job)
		}
		if rest := c.Asked - c.Arrived; rest > 0 && j.Edit == nil {
			p, _ := profiles.Find(j.Profile)
			c.Retry = retryCommand(p, j, rest)
		}
		doc.Jobs = append(doc.Jobs, c)
	}
	return doc
}
