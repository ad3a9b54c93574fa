package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/gateway"
	"easel/internal/honesty"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// sendImage sends one image request as the window's runner does: shaped
// by what the key's service is known to do (unstreamed, or split into
// requests of one image where it makes one a request, saying so),
// journalled under this process's hold before it goes out, judged by the
// billing table of the key's gateway and written into the ledger however
// it ends. Results of a split come back as one.
func (m memory) sendImage(ctx context.Context, env Env, c *api.Client, p config.Profile, gen *api.GenerateRequest, edit *api.EditRequest, explicitStream bool) (*api.ImageResult, error) {
	o := imageOptions(gen, edit)
	advice := m.shape(ctx, env, p, o, edit != nil, edit != nil && edit.Mask != nil, explicitStream)
	if err := m.refused(o.Model, advice); err != nil {
		return nil, err
	}
	parts := 1
	if advice.Split && o.N > 1 {
		parts, o.N = o.N, 1
	}
	var all *api.ImageResult
	for i := 0; i < parts; i++ {
		if parts > 1 {
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("request %d of %d", i+1, parts))
		}
		res, err := m.sendOne(ctx, env, c, p, gen, edit)
		if err != nil {
			if all != nil {
				// What came before the failure is kept and written.
				return all, err
			}
			return nil, err
		}
		all = merge(all, res)
	}
	return all, nil
}

// sendOne is one request of sendImage.
func (m memory) sendOne(ctx context.Context, env Env, c *api.Client, p config.Profile, gen *api.GenerateRequest, edit *api.EditRequest) (*api.ImageResult, error) {
	job := newJobID()
	group := p.UsingGroup()
	release := m.journal(env, job, p, gen, edit)
	sent, arrived := time.Now(), false
	upload := &uploadWatch{env: env}
	var res *api.ImageResult
	var err error
	if gen != nil {
		res, err = c.Generate(ctx, *gen, progress(env, &arrived))
	} else {
		res, err = c.Edit(upload.watch(ctx), *edit, progress(env, &arrived))
	}
	m.tell(ctx, env, p, honesty.AskedOf(gen, edit), res, err)
	x := upload.judged(gateway.Ending{Err: err, Cancelled: ctx.Err() != nil, Arrived: arrived || res != nil, Out: time.Since(sent)})
	led := spend.Ledger{Lib: m.lib}
	verdict := led.Judge(context.WithoutCancel(ctx), p.ID, group, x)
	m.charge(ctx, env, p, job, gen, edit, res, err, verdict)
	if m.lib != nil {
		if ctx.Err() == nil || verdict == gateway.NotBilled {
			// Ended, and said: crossed out. A request a signal stopped
			// while the service worked stays for the next run to tell.
			if jerr := m.lib.Journal().End(context.WithoutCancel(ctx), job); jerr != nil {
				slog.Warn("journal: a job's end could not be written", "job", job, "err", jerr)
			}
		}
		release()
	}
	if ctx.Err() != nil {
		if verdict == gateway.NotBilled {
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.T("cancelled before the service began: nothing was sent to be charged"))
		} else {
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.T("cancelled while the service worked: nothing was saved from this request, and it may have been charged (written in `easel spend` at its estimate)"))
		}
	}
	if err == nil && m.lib != nil {
		m.refreshUsage(ctx, p, c)
	}
	return res, err
}

// canKeep says, before anything is paid for, whether n images of size
// can be written to out (and recorded in the gallery's library, when
// one is open): a full disk, a read-only folder or a name too long is
// said now, not after the service has charged.
func (m memory) canKeep(out string, n int, size string) error {
	switch {
	case m.err != nil:
		return errors.New(catalogue.F("%v: the request's cost could not be written down nor the budget checked, so nothing was sent. Repair or move the gallery's library, or set EASEL_HOME to another folder", m.err))
	case m.lib != nil:
		if err := m.lib.Check(context.Background()); err != nil {
			return errors.New(catalogue.F("%v; nothing was sent", err))
		}
	}
	return library.CanWriteTo(out, n, library.EstimateBytes(size))
}

// journal writes the job down before it is sent, under this process's
// hold (released when it ends, or by the kill that ends it); release is
// a no-op without a library.
func (m memory) journal(env Env, job string, p config.Profile, gen *api.GenerateRequest, edit *api.EditRequest) (release func()) {
	if m.lib == nil {
		return func() {}
	}
	release, err := m.lib.Journal().HoldJob(job)
	if err != nil {
		slog.Warn("journal: cannot hold a job", "job", job, "err", err)
		return func() {}
	}
	if err := m.lib.Journal().Begin(context.Background(), library.Journalled{Job: job, Profile: p.ID, Group: p.UsingGroup(),
		Started: time.Now(), Generate: gen, Edit: edit, Owner: library.OwnerCLI}); err != nil {
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the request could not be written down before sending (%v): a kill now would leave no trace of it", err))
	}
	return release
}

// charge writes an image request in the ledger when the billing table
// says it was, or may have been, billed.
func (m memory) charge(ctx context.Context, env Env, p config.Profile, job string, gen *api.GenerateRequest, edit *api.EditRequest, res *api.ImageResult, err error, v gateway.Verdict) {
	if v == gateway.NotBilled {
		return
	}
	// The ledger prices it at the key's own rate (spend.Ledger.Image).
	c, lerr := spend.Ledger{Lib: m.lib}.Image(context.WithoutCancel(ctx), spend.Charge{Prices: p.Prices, Profile: p.ID, Group: p.UsingGroup(),
		Job: job, Generate: gen, Edit: edit, Result: res, Outcome: spend.Outcome(err, ctx.Err() != nil), Verdict: v})
	if lerr != nil {
		slog.Error("ledger: a request's cost could not be written", "job", job, "err", lerr)
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("the cost could not be written down: %v", lerr))
	}
	if said := c.String(); said != "" {
		if v == gateway.MayBeBilled {
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("may have been charged %s", said))
			return
		}
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("cost %s", said))
	}
}

// keyTable is p's prices for its key in use, with the gateway's facts
// read first when they are stale (sparingly: see gateway.PricesFresh).
func (m memory) keyTable(ctx context.Context, p config.Profile, c *api.Client) pricing.Table {
	var reader gateway.Reader
	if c != nil {
		reader = c
	}
	f, _ := spend.Facts(ctx, m.lib, p, reader, time.Now())
	return spend.KeyTable(p, f)
}

// refreshUsage reads the key's use again after a request, when the
// gateway serves it and it is stale.
func (m memory) refreshUsage(ctx context.Context, p config.Profile, c *api.Client) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	spend.Facts(rctx, m.lib, p, c, time.Now())
}

// imageOptions are the request's options, to be shaped in place.
func imageOptions(gen *api.GenerateRequest, edit *api.EditRequest) *api.ImageOptions {
	if gen != nil {
		return &gen.ImageOptions
	}
	return &edit.ImageOptions
}

// merge puts b's images after a's.
func merge(a, b *api.ImageResult) *api.ImageResult {
	if a == nil {
		return b
	}
	out := *a
	out.Images = append(append([]api.Image(nil), a.Images...), b.Images...)
	out.Undecoded = append(append([]api.Undecoded(nil), a.Undecoded...), b.Undecoded...)
	out.Dropped += b.Dropped
	out.DroppedPreviews += b.DroppedPreviews
	return &out
}

// newJobID names a command line's job: unique across processes.
func newJobID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "cli-" + time.Now().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

// noticeCutOff says, at the start of any command, which of the command
// line's requests a kill cut off since the last run, each written into
// the ledger as may have been billed at its estimate.
func noticeCutOff(ctx context.Context, env Env) {
	if env.Library == "" {
		return
	}
	if _, err := os.Stat(filepath.Join(env.Library, "library.db")); err != nil {
		return // no gallery yet: nothing was journalled, and none is made here
	}
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		return
	}
	defer lib.Close()
	cut, err := lib.Journal().Orphans(ctx)
	if err != nil || len(cut) == 0 {
		return
	}
	profiles, _ := loadProfiles(env)
	for _, j := range cut {
		p, _ := profiles.Find(j.Profile)
		c, _, lerr := spend.Ledger{Lib: lib}.CutOff(ctx, p.Prices, j)
		if lerr != nil {
			slog.Error("ledger: a cut-off job could not be written", "job", j.Job, "err", lerr)
		}
		amount := c.String()
		if e, ok, _ := lib.Ledger().EntryOfJob(ctx, j.Job); ok {
			v, _ := e.Spent()
			amount = "≈ " + pricing.Money{Amount: v, Currency: e.Currency}.String()
		}
		fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("an earlier request was cut off while the service worked on it (started %s, %q): it may have been charged %s; `easel jobs` lists it with the command to send it again.",
			j.Started.Local().Format("2006-01-02 15:04"), promptOf(j), amount))
	}
}

// promptOf is a journalled job's prompt, cut for a line.
func promptOf(j library.Journalled) string {
	s := ""
	if j.Generate != nil {
		s = j.Generate.Prompt
	} else if j.Edit != nil {
		s = j.Edit.Prompt
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return s
}

// refusal words a refusal as what it means for this key: a key that
// worked and is now refused (401) has used up its quota, expired or was
// switched off, not been mistyped; a model outside the key's group is
// offered with the profile's group that lists it.
func (m memory) refusal(ctx context.Context, env Env, p config.Profile, model string, err error) error {
	var e *api.Error
	if errors.As(err, &e) {
		spend.Ledger{Lib: m.lib}.Reword(ctx, p.ID, p.UsingGroup(), e)
	}
	return groupHint(ctx, env, p, model, err)
}

// lockedWriter lets the requests of a batch say their lines at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
