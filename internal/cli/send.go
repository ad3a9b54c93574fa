package cli

import (
	"context"
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
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

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

// keyTable is p's prices for its key in use, with the gateway's facts
// read first when they are stale (sparingly: see gateway.PricesFresh).
func (m memory) keyTable(ctx context.Context, p config.Profile, c *api.Client) pricing.Table {
	var reader gateway.Reader
	if c != nil {
		reader = c
	}
	f, _ := spend.Facts(ctx, m.lib.Ledger(), p, reader, time.Now())
	return spend.KeyTable(p, f)
}

// settle reads the key's own running figure after a request, where its
// gateway serves one and its limits allow, and settles the ledger to it
// (spend.Settle); when that settles entry, says what the gateway's
// figure made of it.
func (m memory) settle(ctx context.Context, env Env, p config.Profile, c *api.Client, entry int64) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	spend.Settle(rctx, m.lib.Ledger(), p, c, time.Now())
	if entry == 0 {
		return
	}
	if e, ok, _ := m.lib.Ledger().Entry(rctx, entry); ok && e.Settled != nil {
		fmt.Fprintln(env.Stderr, "easel: "+spend.SettledLine(e))
	}
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
		c, _, lerr := spend.Ledger{Books: lib.Ledger()}.CutOff(ctx, p.Prices, j)
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
		spend.Ledger{Books: m.lib.Ledger()}.Reword(ctx, p.ID, p.UsingGroup(), e)
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
