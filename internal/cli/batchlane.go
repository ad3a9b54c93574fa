package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"easel/internal/api"
	"easel/internal/batchlane"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/saver"
	"easel/internal/spend"
)

// The cheap lane on the command line: `easel batch --lane batch` sends
// the rows as one batch of the Batch API and follows it until it ends;
// `easel jobs` lists the batches at work, `easel jobs --wait ID` follows
// one again (after a kill, from another shell) and `--cancel ID` stops
// it. The following, the landing and the books are batchlane's, as in
// the window; here are only the words and where the pictures go: the
// gallery, and --out.

// The lanes `easel batch --lane` takes.
const (
	laneNow   = "now"
	laneBatch = "batch"
)

// lanePrices says both lanes' estimates of est, side by side.
func lanePrices(est pricing.Estimate, model string) string {
	cheap, note := spend.InLane(est, spend.LaneBatch, model)
	if note == "" {
		return catalogue.F("%s now; no batch price is known for %s", est, model)
	}
	return catalogue.F("%s now, %s within 24 h through the Batch API", est, cheap)
}

// sendBatch sends reqs as one batch on p's service and follows it until
// it ends, writing each picture into the gallery and out as it lands.
func (m memory) sendBatch(ctx context.Context, env Env, c *api.Client, p config.Profile, reqs []jobs.Request, label, out string) error {
	if m.lib == nil {
		return errors.New(catalogue.T("the Batch API needs the gallery's library, to keep the batch until it is done: it could not be opened"))
	}
	lane := batchlane.New(c, m.lib, batchlane.Options{Poll: pollEvery(env)})
	if ok, why, err := lane.Offered(ctx); err != nil {
		return err
	} else if !ok {
		return errors.New(catalogue.F("no batch lane through this service: %s; send with --lane now", why))
	}
	for i := range reqs {
		reqs[i].Profile, reqs[i].Group = p.ID, p.UsingGroup()
	}
	rec, err := lane.Send(ctx, batchlane.Batch{Requests: reqs, Label: label, Owner: library.OwnerCLI, Out: out})
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("batch %s made: %d requests, to be done within 24 hours; `easel jobs --wait %s` follows it after this run", rec.ID, rec.Total, rec.ID))
	return m.follow(ctx, env, lane, p, rec)
}

// render sends req in the Responses API's background mode and follows it
// until it is done, its picture into the gallery and out.
func (m memory) render(ctx context.Context, env Env, c *api.Client, p config.Profile, req jobs.Request, out string) error {
	if m.lib == nil {
		return errors.New(catalogue.T("a background render needs the gallery's library, to keep it until it is done: it could not be opened"))
	}
	if req.Generate != nil && req.Generate.N > 1 {
		return errors.New(catalogue.T("a background render makes one picture: leave out --n, or send them live"))
	}
	req.Profile, req.Group = p.ID, p.UsingGroup()
	lane := batchlane.New(c, m.lib, batchlane.Options{Poll: pollEvery(env)})
	rec, err := lane.Render(ctx, req, promptOfRequest(req), library.OwnerCLI, out)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("rendering in the background as %s; `easel jobs --wait %s` brings it in if this run ends first", rec.ID, rec.ID))
	return m.follow(ctx, env, lane, p, rec)
}

// promptOfRequest is req's prompt.
func promptOfRequest(req jobs.Request) string {
	if req.Generate != nil {
		return req.Generate.Prompt
	}
	if req.Edit != nil {
		return req.Edit.Prompt
	}
	return ""
}

// follow follows rec until it ends and says what it brought.
func (m memory) follow(ctx context.Context, env Env, lane *batchlane.Lane, p config.Profile, rec library.BatchRecord) error {
	files := newFolder(env, rec.Out, numbered("batch-"+rec.ID))
	files.gallery = saver.Library{Lib: m.lib}
	journal := &cliJournal{files: files, leave: map[string]bool{}, holds: map[string]func(){}, lib: saver.Journal{Lib: m.lib, Owner: library.OwnerCLI}}
	runner := jobs.New(nil, files, nil, jobs.Options{Journal: journal, Memory: m.lib.Memory(), Ledger: spend.Ledger{Books: m.lib.Ledger()}})
	land := batchlane.Through(runner, func(req *jobs.Request) { req.Prices = p.Prices })
	last := ""
	rec, err := lane.Follow(ctx, rec.ID, land, func(pr batchlane.Progress) {
		line := batchLine(pr.Record)
		if line != last {
			fmt.Fprintln(env.Stderr, "easel: "+line)
			last = line
		}
	})
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("stopped following batch %s; it goes on at the service: `easel jobs --wait %s` brings it in", rec.ID, rec.ID))
		}
		return err
	}
	return m.batchEnd(ctx, env, rec)
}

// batchLine is a batch's progress in a line.
func batchLine(r library.BatchRecord) string {
	return catalogue.F("batch %s: %s, %d of %d done, %d failed, made %s ago", r.ID, batchlane.StatusWords(r.Status), r.Completed, r.Total, r.Failed, catalogue.Duration(time.Since(r.Created).Round(time.Second)))
}

// batchEnd says what an ended batch did not bring, with the command that
// sends it again, and fails the run when anything was left.
func (m memory) batchEnd(ctx context.Context, env Env, rec library.BatchRecord) error {
	reqs, err := m.lib.Journal().Batches().Requests(ctx, rec.ID)
	if err != nil {
		return err
	}
	left := 0
	for _, q := range reqs {
		if q.State != library.BatchFailed {
			continue
		}
		left++
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("%s: %s", q.CustomID, q.Error))
	}
	if left > 0 {
		return errors.New(catalogue.N("%d requests of the batch were not made; `easel jobs` lists them with the command that sends them again", left, left))
	}
	if rec.Endpoint == api.RenderEndpoint {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("render %s is done: the picture is in the gallery", rec.ID))
		return nil
	}
	fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("batch %s is done: every picture is in the gallery", rec.ID))
	return nil
}

// pollEvery is the first wait between two reads of a batch's status:
// EASEL_BATCH_POLL (a duration) where set, for tests against the demo.
func pollEvery(env Env) time.Duration {
	if d, err := time.ParseDuration(env.Getenv("EASEL_BATCH_POLL")); err == nil && d > 0 {
		return d
	}
	return 0
}

// waitBatch is `easel jobs --wait ID`: it follows a batch made before, by
// this or another run, on the profile and key it was made with.
func waitBatch(ctx context.Context, env Env, lib *library.Library, id string, cancel bool) error {
	rec, err := lib.Journal().Batches().Get(ctx, id)
	if errors.Is(err, library.ErrNoBatch) {
		return usageErr(env, catalogue.T("no batch is called %q; `easel jobs` lists them"), id)
	} else if err != nil {
		return err
	}
	t := target{profile: rec.Profile, group: rec.Group}
	c, p, err := t.client(ctx, env)
	if err != nil {
		return err
	}
	m := memory{lib: lib}
	lane := batchlane.New(c, lib, batchlane.Options{Poll: pollEvery(env)})
	if cancel {
		if err := lane.Cancel(ctx, id); err != nil {
			return err
		}
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("batch %s is being cancelled; what it finished is brought in", id))
	}
	if !rec.Ended.IsZero() {
		return m.batchEnd(ctx, env, rec)
	}
	return m.follow(ctx, env, lane, p, rec)
}

// listBatches says the batches at work, each with its progress and age.
func listBatches(ctx context.Context, env Env, lib *library.Library) error {
	pending, err := lib.Journal().Batches().Pending(ctx)
	if err != nil {
		return err
	}
	for _, r := range pending {
		fmt.Fprintf(env.Stdout, "%s  %q\n", batchLine(r), r.Label)
	}
	return nil
}
