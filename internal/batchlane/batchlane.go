// Package batchlane sends work that can wait through the Batch API, at
// its lower price, and brings the answers into the gallery, for the
// window and the command line alike.
//
// A batch is kept from the moment it is made: each request is written
// in the journal first (owned by the batch, so it is not taken for one a
// kill cut off), then the batch and its requests in the library's batch
// book. Following a batch reads its status with a growing wait, from
// whichever process is running (the window at its next start, `easel
// jobs --wait`); once it is done its answers file is kept on disk and
// each answer lands through the same runner a live request ends in
// (jobs.Runner: measured, charged at the batch's price, saved, crossed
// out of the journal). What a batch did not bring stays in the journal,
// listed with a resend.
package batchlane

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/spend"
)

// Lander ends one request whose answer the batch brought: the caller's
// runner (with its saver and listener) runs req, whose Service hands over
// the answer, and the lander returns the job's final event.
type Lander func(ctx context.Context, req jobs.Request) jobs.Event

// Lane is the Batch API of one profile's service and the library its
// batches are kept in.
type Lane struct {
	batches *api.Batches
	journal *library.Journal
	book    *library.BatchBook
	dir     string
	// poll is the first wait between status reads; it doubles up to
	// maxPoll.
	poll, maxPoll time.Duration
}

// Options tune a Lane.
type Options struct {
	// Poll is the first wait between two reads of a batch's status
	// (default 5 s); each wait doubles, up to MaxPoll (default 5 min).
	Poll, MaxPoll time.Duration
}

// New is the Batch API of c's service, its batches kept in lib.
func New(c *api.Client, lib *library.Library, opts Options) *Lane {
	if opts.Poll <= 0 {
		opts.Poll = 5 * time.Second
	}
	if opts.MaxPoll < opts.Poll {
		opts.MaxPoll = max(opts.Poll, 5*time.Minute)
	}
	return &Lane{batches: api.NewBatches(c), journal: lib.Journal(), book: lib.Journal().Batches(),
		dir: filepath.Join(lib.Root(), "batches"), poll: opts.Poll, maxPoll: opts.MaxPoll}
}

// Offered says whether the service takes batches, and why not in words.
func (l *Lane) Offered(ctx context.Context) (bool, string, error) { return l.batches.Offered(ctx) }

// Batch is what a batch is made of: its requests (all generations or all
// edits, each as the plan made it for a live send, with Profile and
// Group set), what the designer calls it, and who follows it.
type Batch struct {
	Requests []jobs.Request
	Label    string
	// Owner is library.OwnerCLI for the command line's, Out the folder
	// it writes the pictures into besides the gallery.
	Owner, Out string
}

// Send makes one batch of b's requests on the service and keeps it. The
// limits are checked before anything is uploaded; an edit's images go
// up once each, however many requests name them.
func (l *Lane) Send(ctx context.Context, b Batch) (library.BatchRecord, error) {
	reqs := b.Requests
	if len(reqs) == 0 || len(reqs) > api.MaxBatchRequests {
		return library.BatchRecord{}, errors.New(catalogue.F("a batch holds 1 to %d requests, not %d", api.MaxBatchRequests, len(reqs)))
	}
	endpoint := api.BatchGenerations
	if reqs[0].Edit != nil {
		endpoint = api.BatchEdits
	}
	for _, r := range reqs {
		if (r.Edit != nil) != (endpoint == api.BatchEdits) {
			return library.BatchRecord{}, errors.New(catalogue.T("a batch is all generations or all edits"))
		}
	}
	// The request file measured with stand-in file ids before anything
	// goes up: one over the service's bound is refused here.
	if file, err := lines(reqs, func(api.InputImage) (string, error) { return "file-000000000000000000000000", nil }); err != nil {
		return library.BatchRecord{}, err
	} else if len(file) > api.MaxBatchFile {
		return library.BatchRecord{}, errors.New(catalogue.F("the batch's request file would be %d MB, over the service's 200 MB", len(file)>>20))
	}
	now := time.Now()
	kept := make([]library.BatchRequest, len(reqs))
	for i, r := range reqs {
		kept[i] = library.BatchRequest{CustomID: fmt.Sprintf("easel-%d", i+1), Job: fmt.Sprintf("job-batch-%d-%d", now.UnixNano(), i+1)}
		entry := library.Journalled{Job: kept[i].Job, Profile: r.Profile, Group: r.Group, Started: now, Generate: r.Generate, Edit: r.Edit,
			Parents: r.Parents, Continues: r.Continues, Owner: library.OwnerBatch}
		if err := l.journal.Begin(ctx, entry); err != nil {
			l.forget(kept[:i])
			return library.BatchRecord{}, err
		}
	}
	rec, err := l.make(ctx, b, endpoint, kept)
	if err != nil && rec.ID == "" {
		l.forget(kept) // nothing was made: nothing to list or resend
		return library.BatchRecord{}, err
	}
	if err != nil {
		// Made at the service, not kept here: its requests stay in the
		// journal, and the batch's id is said.
		return rec, errors.New(catalogue.F("the service made batch %s, but Easel could not keep it: %v", rec.ID, err))
	}
	return rec, nil
}

// make uploads the images and the request file, makes the batch and
// keeps it with its requests.
func (l *Lane) make(ctx context.Context, b Batch, endpoint string, kept []library.BatchRequest) (library.BatchRecord, error) {
	upload := func(img api.InputImage) (string, error) { return l.batches.Upload(ctx, img, "batch") }
	file, err := lines(b.Requests, upload)
	if err != nil {
		return library.BatchRecord{}, err
	}
	input, err := l.batches.Upload(ctx, api.InputImage{Name: "easel-batch.jsonl", Data: file, ContentType: "application/jsonl"}, "batch")
	if err != nil {
		return library.BatchRecord{}, err
	}
	label := []rune(b.Label)
	made, err := l.batches.Create(ctx, input, endpoint, map[string]string{"made_by": "easel", "label": string(label[:min(len(label), 200)])})
	if err != nil {
		return library.BatchRecord{}, err
	}
	first := b.Requests[0]
	rec := library.BatchRecord{ID: made.ID, Profile: first.Profile, Group: first.Group, Model: first.Options().Model, Endpoint: endpoint,
		InputFile: input, Status: made.Status, Total: len(kept), Label: b.Label, Owner: b.Owner, Out: b.Out,
		Created: time.Now(), Expires: made.Expires}
	// The batch is made and will be billed: keeping it must not be
	// stopped by a cancel now.
	if err := l.book.Add(context.WithoutCancel(ctx), rec, kept); err != nil {
		slog.Error("batch: a batch the service made could not be kept; its id is", "batch", made.ID, "err", err)
		return rec, err
	}
	return rec, nil
}

// lines is the request file of reqs, custom ids easel-1, easel-2…, an
// edit's images named by the ids upload gives them.
func lines(reqs []jobs.Request, upload func(api.InputImage) (string, error)) ([]byte, error) {
	var file bytes.Buffer
	for i, r := range reqs {
		id := fmt.Sprintf("easel-%d", i+1)
		var line []byte
		var err error
		if r.Generate != nil {
			line, err = api.GenerateLine(id, *r.Generate)
		} else {
			line, err = editLine(id, *r.Edit, upload)
		}
		if err != nil {
			return nil, err
		}
		file.Write(line)
		file.WriteByte('\n')
	}
	return file.Bytes(), nil
}

func editLine(id string, e api.EditRequest, upload func(api.InputImage) (string, error)) ([]byte, error) {
	files := make([]string, len(e.Images))
	for i, img := range e.Images {
		f, err := upload(img)
		if err != nil {
			return nil, err
		}
		files[i] = f
	}
	mask := ""
	if e.Mask != nil {
		var err error
		if mask, err = upload(*e.Mask); err != nil {
			return nil, err
		}
	}
	return api.EditLine(id, e, files, mask)
}

// forget crosses out of the journal requests that never went.
func (l *Lane) forget(kept []library.BatchRequest) {
	for _, k := range kept {
		if err := l.journal.End(context.Background(), k.Job); err != nil {
			slog.Warn("batch: a request that never went could not be crossed out", "job", k.Job, "err", err)
		}
	}
}

// Left are the requests ended batch id did not make, as they would be
// sent again, taken out of the journal: the caller sends them (Send
// again, or live) and they are no longer listed.
func (l *Lane) Left(ctx context.Context, id string) ([]jobs.Request, error) {
	reqs, err := l.book.Requests(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []jobs.Request
	for _, q := range reqs {
		if q.State != library.BatchFailed {
			continue
		}
		e, err := l.journal.Entry(ctx, q.Job)
		if errors.Is(err, sql.ErrNoRows) {
			continue // already taken, or forgotten
		}
		if err != nil {
			return nil, err
		}
		out = append(out, jobs.Request{Profile: e.Profile, Group: e.Group, Generate: e.Generate, Edit: e.Edit, Parents: e.Parents, Continues: e.Continues})
		if err := l.journal.End(ctx, q.Job); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Cancel asks the service to stop batch id (or a background render);
// what it finished is brought in by Follow as from any batch that ended.
func (l *Lane) Cancel(ctx context.Context, id string) error {
	rec, err := l.book.Get(ctx, id)
	if err != nil {
		return err
	}
	cancel := l.batches.Cancel
	if rec.Endpoint == api.RenderEndpoint {
		cancel = l.batches.CancelRender
	}
	b, err := cancel(ctx, id)
	if err != nil {
		return err
	}
	return l.book.Checked(ctx, id, b.Status, b.Total, b.Completed, b.Failed)
}

// status is what the service says of rec now: a batch's status, or a
// background render's with its picture once it is done.
func (l *Lane) status(ctx context.Context, rec library.BatchRecord) (api.Batch, *api.ImageResult, error) {
	if rec.Endpoint == api.RenderEndpoint {
		return l.batches.RenderStatus(ctx, rec.ID)
	}
	b, err := l.batches.Status(ctx, rec.ID)
	return b, nil, err
}

// Render sends one long request (a 4K or xhigh picture, a thread's turn)
// in the Responses API's background mode and keeps it as a batch of one:
// it survives the window closing and is followed, landed and charged as
// a batch is, at the live price.
func (l *Lane) Render(ctx context.Context, req jobs.Request, label, owner, out string) (library.BatchRecord, error) {
	edit := api.EditRequest{}
	if req.Generate != nil {
		edit.Prompt, edit.ImageOptions = req.Generate.Prompt, req.Generate.ImageOptions
	} else if req.Edit != nil {
		edit = *req.Edit
	}
	kept := []library.BatchRequest{{CustomID: "render", Job: fmt.Sprintf("job-render-%d", time.Now().UnixNano())}}
	entry := library.Journalled{Job: kept[0].Job, Profile: req.Profile, Group: req.Group, Started: time.Now(), Generate: req.Generate, Edit: req.Edit,
		Parents: req.Parents, Continues: req.Continues, Owner: library.OwnerBatch}
	if err := l.journal.Begin(ctx, entry); err != nil {
		return library.BatchRecord{}, err
	}
	made, err := l.batches.Render(ctx, edit)
	if err != nil {
		l.forget(kept)
		return library.BatchRecord{}, err
	}
	rec := library.BatchRecord{ID: made.ID, Profile: req.Profile, Group: req.Group, Model: edit.Model, Endpoint: api.RenderEndpoint,
		Status: made.Status, Total: 1, Label: label, Owner: owner, Out: out, Created: time.Now()}
	if err := l.book.Add(context.WithoutCancel(ctx), rec, kept); err != nil {
		slog.Error("batch: a background render the service took could not be kept; its id is", "response", made.ID, "err", err)
		return rec, err
	}
	return rec, nil
}

// Progress is what a status read found.
type Progress struct {
	Record library.BatchRecord
	// Next is when the status is read again; zero once it has ended.
	Next time.Time
}

// Follow reads batch id's status until it ends, with a wait that grows,
// telling progress after each read; then brings its answers in through
// land and ends it. A read that fails (the network, the service) is
// tried again after the next wait; ctx ending stops the following, not
// the batch, which the next Follow picks up.
func (l *Lane) Follow(ctx context.Context, id string, land Lander, progress func(Progress)) (library.BatchRecord, error) {
	wait := l.poll
	for {
		rec, err := l.book.Get(ctx, id)
		if err != nil {
			return rec, err
		}
		if !rec.Ended.IsZero() {
			return rec, nil
		}
		b, res, err := l.status(ctx, rec)
		if err == nil {
			_ = l.book.Checked(ctx, id, b.Status, b.Total, b.Completed, b.Failed)
			rec.Status, rec.Total, rec.Completed, rec.Failed = b.Status, b.Total, b.Completed, b.Failed
			if b.Final() {
				err := l.collect(ctx, b, res, land)
				if errors.Is(err, errHeld) {
					// Another process brings it in: wait for it to end.
					err = l.wait(ctx, wait)
					if err != nil {
						return rec, err
					}
					continue
				}
				if err != nil {
					return rec, err
				}
				rec, err = l.book.Get(ctx, id)
				if progress != nil {
					progress(Progress{Record: rec})
				}
				return rec, err
			}
		} else {
			var ae *api.Error
			if errors.As(err, &ae) && (ae.Kind == api.KindAuth || ae.Status == 404) {
				return rec, err // no later read will do better
			}
			slog.Warn("batch: its status could not be read; trying again", "batch", id, "err", err)
		}
		if progress != nil {
			progress(Progress{Record: rec, Next: time.Now().Add(wait)})
		}
		if err := l.wait(ctx, wait); err != nil {
			return rec, err
		}
		wait = min(wait*2, l.maxPoll)
	}
}

// wait waits d, or until ctx ends.
func (l *Lane) wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errHeld is a batch whose answers another process is bringing in.
var errHeld = errors.New("batchlane: another Easel is bringing this batch in")

// collect brings an ended batch's answers in: its output file kept on
// disk before it is read, each answer landed, each failure settled with
// the service's words, then the batch ended. A request already landed (a
// collect a kill cut short) is not landed twice.
func (l *Lane) collect(ctx context.Context, b api.Batch, rendered *api.ImageResult, land Lander) error {
	// One process lands a batch's answers: the window and `easel jobs
	// --wait` may follow the same one.
	release, err := l.journal.HoldJob("batch-" + b.ID)
	if err != nil {
		return errHeld
	}
	defer release()
	reqs, err := l.book.Requests(ctx, b.ID)
	if err != nil {
		return err
	}
	byID := map[string]library.BatchRequest{}
	for _, q := range reqs {
		byID[q.CustomID] = q
	}
	rec, err := l.book.Get(ctx, b.ID)
	if err != nil {
		return err
	}
	if rendered != nil && len(reqs) == 1 && reqs[0].State == library.BatchWaiting {
		// A background render: its one answer came with its status.
		if err := l.settle(ctx, rec, byID, api.BatchAnswer{CustomID: reqs[0].CustomID, Result: rendered}, land); err != nil {
			return err
		}
	}
	for _, f := range []struct{ id, kind string }{{b.OutputFile, "output"}, {b.ErrorFile, "error"}} {
		if f.id == "" {
			continue
		}
		path, err := l.keep(ctx, b.ID, f.id, f.kind)
		if err != nil {
			return err
		}
		if err := l.read(ctx, rec, path, byID, land); err != nil {
			return err
		}
	}
	why := leftWhy(rec, b)
	for _, q := range byID {
		if q.State == library.BatchWaiting {
			_ = l.book.Settle(ctx, b.ID, q.CustomID, library.BatchFailed, why)
		}
	}
	return l.book.End(context.WithoutCancel(ctx), b.ID)
}

// StatusWords is a batch's status as a person reads it; the service's
// own word for one Easel does not know.
func StatusWords(status string) string {
	if w, ok := map[string]string{
		api.BatchValidating:  catalogue.T("being checked by the service"),
		api.BatchInProgress:  catalogue.T("in progress"),
		api.BatchFinalizing:  catalogue.T("being finished"),
		api.BatchCompleted:   catalogue.T("done"),
		api.BatchFailed:      catalogue.T("refused by the service"),
		api.BatchExpired:     catalogue.T("expired (its 24 hours ran out)"),
		api.BatchCancelling:  catalogue.T("being cancelled"),
		api.BatchCancelled:   catalogue.T("cancelled"),
		api.RenderQueued:     catalogue.T("queued at the service"),
		api.RenderIncomplete: catalogue.T("incomplete"),
	}[status]; ok {
		return w
	}
	return status
}

// leftWhy says why rec's requests still waiting when b ended were not
// made: what its status says, and the service's words when it gave some.
func leftWhy(rec library.BatchRecord, b api.Batch) string {
	why := leftBecause(b.Status)
	if rec.Endpoint == api.RenderEndpoint {
		why = catalogue.F("the render ended %s, without a picture", StatusWords(b.Status))
	}
	if why == "" {
		why = catalogue.T("the service's answers did not include this request")
	}
	if len(b.Errors) > 0 {
		why += ": " + b.Errors[0]
	}
	return why
}

// leftBecause says why a request a batch ended as status did not make
// was left, "" for a status that says nothing of it.
func leftBecause(status string) string {
	return map[string]string{
		api.BatchExpired:   catalogue.T("the batch's 24 hours ran out before this request was made; nothing was charged for it"),
		api.BatchCancelled: catalogue.T("the batch was cancelled before this request was made; nothing was charged for it"),
		api.BatchFailed:    catalogue.T("the service refused the batch's request file; nothing was made or charged"),
	}[status]
}

// keep downloads a batch's answers file into the library's batches
// folder, once: a collect after a kill reads the copy on disk.
func (l *Lane) keep(ctx context.Context, batch, file, kind string) (string, error) {
	path := filepath.Join(l.dir, fmt.Sprintf("%s.%s.jsonl", filepath.Base(batch), kind))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(l.dir, "download-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	err = l.batches.Download(ctx, file, tmp, maxAnswers)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}

// maxAnswers bounds a batch's answers file: 50,000 answers of pictures
// would be more, but Easel's batches are at most batch.MaxRequests.
const maxAnswers = 8 << 30

// read lands each answer of the file at path.
func (l *Lane) read(ctx context.Context, rec library.BatchRecord, path string, byID map[string]library.BatchRequest, land Lander) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return l.batches.ReadAnswers(ctx, f, rec.Model, 10, func(a api.BatchAnswer) error {
		return l.settle(ctx, rec, byID, a, land)
	})
}

// settle lands one answer of rec, or keeps why it failed, once.
func (l *Lane) settle(ctx context.Context, rec library.BatchRecord, byID map[string]library.BatchRequest, a api.BatchAnswer, land Lander) error {
	q, ok := byID[a.CustomID]
	if !ok || q.State != library.BatchWaiting {
		return nil
	}
	state, why := library.BatchLanded, ""
	if a.Err != nil {
		state, why = library.BatchFailed, errorLine(a.Err)
	} else if end := l.land(ctx, q, a.Result, land, laneOf(rec)); end.State != jobs.Done {
		state, why = library.BatchFailed, catalogue.T("the answer came but could not be kept")
		if end.Err != nil {
			why = errorLine(end.Err)
		}
	} else if err := l.journal.End(context.WithoutCancel(ctx), q.Job); err != nil {
		// The runner crosses it out when it has a journal; one
		// without (a test's) leaves it to this.
		slog.Warn("batch: a landed request could not be crossed out", "job", q.Job, "err", err)
	}
	q.State = state
	byID[a.CustomID] = q
	return l.book.Settle(context.WithoutCancel(ctx), rec.ID, a.CustomID, state, why)
}

// laneOf is the lane rec's answers are charged in: a batch's price, or
// the live one for a background render.
func laneOf(rec library.BatchRecord) string {
	if rec.Endpoint == api.RenderEndpoint {
		return ""
	}
	return spend.LaneBatch
}

// land runs one answered request to its end through land, as a job of
// its journalled id, charged in lane.
func (l *Lane) land(ctx context.Context, q library.BatchRequest, res *api.ImageResult, land Lander, lane string) jobs.Event {
	entry, err := l.journal.Entry(ctx, q.Job)
	if errors.Is(err, sql.ErrNoRows) {
		// Landed before a kill cut the collect short: its job ended, and
		// its pictures are in the gallery.
		return jobs.Event{State: jobs.Done}
	}
	if err != nil {
		return jobs.Event{State: jobs.Failed, Err: &api.Error{Kind: api.KindCannotKeep, Err: err, Message: err.Error()}}
	}
	req := jobs.Request{Profile: entry.Profile, Group: entry.Group, Generate: entry.Generate, Edit: entry.Edit, Parents: entry.Parents,
		Continues: entry.Continues, Service: arrived{res}, Lane: lane, Journalled: q.Job}
	return land(context.WithoutCancel(ctx), req)
}

// errorLine is why a request failed in one line: Easel's words for a
// request the batch never ran (the service's code batch_expired,
// batch_cancelled), else the service's.
func errorLine(err error) string {
	var ae *api.Error
	if !errors.As(err, &ae) {
		return err.Error()
	}
	switch ae.Code {
	case "batch_expired":
		return leftBecause(api.BatchExpired)
	case "batch_cancelled":
		return leftBecause(api.BatchCancelled)
	}
	return ae.Line()
}

// arrived is a service that hands over an answer the batch brought.
type arrived struct{ res *api.ImageResult }

func (a arrived) Generate(context.Context, api.GenerateRequest, func(api.Partial)) (*api.ImageResult, error) {
	return a.res, nil
}

func (a arrived) Edit(context.Context, api.EditRequest, func(api.Partial)) (*api.ImageResult, error) {
	return a.res, nil
}

// Through lands each answer on runner: fill completes the request (the
// profile's prices, a listener of the caller's) before it is submitted,
// and the lander waits for the job's final event.
func Through(runner *jobs.Runner, fill func(*jobs.Request)) Lander {
	return func(ctx context.Context, req jobs.Request) jobs.Event {
		final := make(chan jobs.Event, 1)
		if fill != nil {
			fill(&req)
		}
		heard := req.Listener
		req.Listener = func(e jobs.Event) {
			if heard != nil {
				heard(e)
			}
			if e.State.Final() {
				final <- e
			}
		}
		if _, err := runner.Submit(req); err != nil {
			return jobs.Event{State: jobs.Failed, Err: &api.Error{Kind: api.KindCannotKeep, Err: err, Message: err.Error()}}
		}
		return <-final
	}
}
