package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/gateway"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/saver"
	"easel/internal/spend"
)

// The command line's image requests run on the window's engine,
// jobs.Runner: written in the journal before they go out, each image
// kept the moment it arrives, judged by the key's billing table, written
// in the ledger, learnt from, and saved before anything says "done".
// What the command line adds is only where the images go (a folder, as
// it always named them: folder) and what it says (stderr: teller). A
// paid image is in --out as it arrives, on every path, because the
// runner's arrival is the folder's write.

// send runs req on p's service through a runner of its own, writing its
// images into files, and returns once it has ended. A request the key's
// service is known to make one image at a time goes as that many
// requests of one, as the window offers; what came before a failure
// stays written. The result's images are those written.
func (m memory) send(ctx context.Context, env Env, c *api.Client, p config.Profile, req jobs.Request, files *folder) (*api.ImageResult, error) {
	o := req.Options()
	// The plan the window asks its questions from: here a refusal, a
	// split said on stderr, and the advice the runner shapes by.
	plan, _ := jobs.ReadPlan(ctx, m.lib, p, req)
	advice := plan.Advice
	if err := m.refused(o.Model, advice); err != nil {
		return nil, err
	}
	req.Profile, req.Group, req.Prices, req.Service = p.ID, p.UsingGroup(), p.Prices, c
	parts := 1
	if advice.Split && o.N > 1 {
		fmt.Fprintln(env.Stderr, "easel: "+advice.SplitNote)
		parts = o.N
		req = req.WithOptions(func(o *api.ImageOptions) { o.N = 1 })
		advice.Split, advice.Notes = false, slices.DeleteFunc(slices.Clone(advice.Notes), func(n string) bool { return n == advice.SplitNote })
	}
	req.Advice = &advice
	journal := &cliJournal{files: files, leave: map[string]bool{}, holds: map[string]func(){}}
	opts := jobs.Options{Journal: journal}
	if m.lib != nil {
		journal.lib = saver.Journal{Lib: m.lib, Owner: library.OwnerCLI}
		opts.Memory, opts.Ledger, opts.Threads = m.lib.Memory(), spend.Ledger{Books: m.lib.Ledger()}, m.lib.Lineage()
	}
	if req.Continues != 0 && m.lib != nil {
		// A turn of a thread is a gallery picture: the thread is the
		// gallery's, shown in the window too.
		files.gallery = saver.Library{Lib: m.lib}
	}
	runner := jobs.New(nil, files, nil, opts)
	if m.lib != nil {
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		spend.Anchor(actx, m.lib.Ledger(), p, c, time.Now())
		cancel()
	}
	all := &api.ImageResult{}
	for i := range parts {
		if parts > 1 {
			fmt.Fprintln(env.Stderr, "easel: "+catalogue.F("request %d of %d", i+1, parts))
		}
		t := &teller{env: env, final: make(chan jobs.Event, 1), journal: journal, report: files.report}
		res, err := runOne(ctx, runner, req, t, files)
		all = merge(all, res)
		if m.lib != nil {
			m.settle(ctx, env, p, c, t.unconfirmed)
		}
		if err != nil {
			return all, err
		}
	}
	return all, nil
}

// runOne submits one request and waits for its end, cancelling it when
// ctx ends (Ctrl+C, SIGTERM): the runner then judges and writes down
// what a cancel may have cost.
func runOne(ctx context.Context, runner *jobs.Runner, req jobs.Request, t *teller, files *folder) (*api.ImageResult, error) {
	req.Listener = t.hear
	id, err := runner.Submit(req)
	if err != nil {
		return &api.ImageResult{}, err
	}
	var end jobs.Event
	select {
	case end = <-t.final:
	case <-ctx.Done():
		runner.Cancel(id)
		end = <-t.final
	}
	runner.Wait()
	return files.written(id), t.said(end)
}

// teller says on stderr what a job's events tell, as the card shows
// them: notes, the upload, previews and images as they arrive, what the
// answer did not do, and what it cost.
type teller struct {
	env     Env
	final   chan jobs.Event
	journal *cliJournal
	report  *jsonReport
	// the upload's lines, one a second
	last   time.Time
	talked bool
	// unconfirmed is the ledger entry of a request whose gateway settles
	// it later by the key's own figure; 0 for none.
	unconfirmed int64
	// printed are the notes already printed.
	printed map[string]bool
}

func (t *teller) hear(e jobs.Event) {
	switch e.State {
	case jobs.Sending:
		for _, note := range e.Notes {
			if t.printed[note] {
				continue // a later Sending repeats the notes with one more
			}
			if t.printed == nil {
				t.printed = map[string]bool{}
			}
			t.printed[note] = true
			fmt.Fprintln(t.env.Stderr, "easel: "+note)
			t.report.note("service", note)
		}
		if e.Upload != nil {
			t.upload(*e.Upload)
		}
	case jobs.Partial:
		if p := e.Preview; p.Final {
			fmt.Fprintln(t.env.Stderr, catalogue.F("image %d received (%d bytes)", p.Image+1, len(p.Data)))
		} else {
			fmt.Fprintln(t.env.Stderr, catalogue.F("preview %d received (%d bytes)", p.Index+1, len(p.Data)))
		}
	case jobs.Done, jobs.Failed, jobs.Cancelled:
		if e.State == jobs.Cancelled && e.Charged != nil {
			// The service may have worked on it: its entry stays in the
			// journal, for the next run to tell and `easel jobs` to list.
			t.journal.leaveFor(e.Job.ID)
		}
		t.final <- e
	}
}

// upload tells how an edit's upload goes: bytes sent of the total, the
// rate and the time left, once a second, then that it is all sent and
// the service is at work; an upload done within the first second says
// nothing.
func (t *teller) upload(u api.Upload) {
	switch {
	case u.Done():
		if t.talked {
			fmt.Fprintln(t.env.Stderr, "easel: "+catalogue.F("sent %s; waiting for the service", humanize.Bytes(uint64(u.Total))))
		}
	case u.Elapsed < uploadEvery, time.Since(t.last) < uploadEvery:
	default:
		t.last, t.talked = time.Now(), true
		line := u.String()
		fmt.Fprintln(t.env.Stderr, "easel: "+strings.ToLower(line[:1])+line[1:])
	}
}

// uploadEvery spaces the upload lines on stderr: a line a second says a
// long upload moves without filling the terminal.
const uploadEvery = time.Second

// said says a job's end and returns its error: what the answer did not
// do of what was asked, its cost, where unreadable bytes went, and for a
// cancel whether it may have been charged.
func (t *teller) said(e jobs.Event) error {
	t.report.ended(e)
	for _, path := range e.Aside {
		fmt.Fprintln(t.env.Stderr, "easel: "+catalogue.F("the service sent something that is not a picture; its bytes are kept at %s", path))
	}
	if e.State == jobs.Done {
		for _, s := range e.Honesty.Sentences() {
			fmt.Fprintf(t.env.Stderr, "easel: %s\n", s)
			t.report.note("answer", s)
		}
		if e.Dropped > 0 {
			line := catalogue.F("the service sent %d more images than were asked for; they were not kept", e.Dropped)
			fmt.Fprintln(t.env.Stderr, "easel: "+line)
			t.report.note("dropped", line)
		}
	}
	if e.Charged != nil {
		if e.Charged.Unconfirmed {
			t.unconfirmed = e.Charged.Entry
		}
		if amount := e.Charged.String(); amount != "" {
			if e.Verdict == gateway.MayBeBilled {
				fmt.Fprintln(t.env.Stderr, "easel: "+catalogue.F("may have been charged %s", amount))
			} else {
				fmt.Fprintln(t.env.Stderr, "easel: "+catalogue.F("cost %s", amount))
			}
		}
	}
	switch e.State {
	case jobs.Cancelled:
		if e.Charged == nil {
			fmt.Fprintln(t.env.Stderr, "easel: "+catalogue.T("cancelled before the service began: nothing was sent to be charged"))
		} else {
			fmt.Fprintln(t.env.Stderr, "easel: "+catalogue.T("cancelled while the service worked: nothing was saved from this request, and it may have been charged (written in `easel spend` at its estimate)"))
		}
		return &api.Error{Kind: api.KindCancelled, Err: context.Canceled}
	case jobs.Failed:
		return e.Err
	}
	var failed []error
	for _, u := range e.Unsaved {
		failed = append(failed, u.Err)
	}
	return errors.Join(failed...)
}

// folder is the command line's jobs.Saver: each image goes into --out
// under a name no file has (easel-<time>-1, -2…, or a batch cell's),
// written whole and never through a link, its path on stdout. An image
// is written the moment it arrives (cliJournal), so the save at the end
// finds it there; an edit that keeps its unmasked area has a second,
// kept copy beside each result.
type folder struct {
	env Env
	out string
	// name is the file name of the k-th image written (from 0).
	name func(k int) string
	// restore, for outpaint, puts the user's picture back into the k-th
	// result before it is written; nil writes the bytes as they came.
	restore func(k int, img api.Image) api.Image
	// report, with --json, takes the paths (and the teller's words)
	// instead of stdout.
	report *jsonReport

	mu sync.Mutex
	k  int
	// paths are the files written, by job and image index.
	paths map[string]map[int]written
	// gallery, when it has a library, also keeps each result there
	// after the folder has it (an edit that continues a thread).
	gallery saver.Library
}

// written is one image written: its file, and the image it holds.
type written struct {
	k    int
	path string
	img  api.Image
}

// newFolder is a folder writing into out, names made by name.
func newFolder(env Env, out string, name func(k int) string) *folder {
	return &folder{env: env, out: out, name: name, paths: map[string]map[int]written{}}
}

// numbered names files stem-1, stem-2…: `easel gen`'s and `edit`'s.
func numbered(stem string) func(int) string {
	return func(k int) string { return fmt.Sprintf("%s-%d", stem, k+1) }
}

// write writes job's i-th image, once: a second call (the save after its
// arrival) returns the first's.
func (f *folder) write(job string, i int, img api.Image) (written, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w, ok := f.paths[job][i]; ok {
		return w, nil
	}
	if f.restore != nil {
		img = f.restore(f.k, img)
	}
	path, err := keepFile(f.out, f.name(f.k), imageio.Extension(img.Format), img.Data)
	if err != nil {
		return written{}, err
	}
	w := written{k: f.k, path: path, img: img}
	f.k++
	if f.paths[job] == nil {
		f.paths[job] = map[int]written{}
	}
	f.paths[job][i] = w
	f.said(path, "image", job)
	return w, nil
}

// written are job's images as written, in order.
func (f *folder) written(job string) *api.ImageResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	res := &api.ImageResult{}
	for _, i := range slices.Sorted(maps.Keys(f.paths[job])) {
		res.Images = append(res.Images, f.paths[job][i].img)
	}
	return res
}

// Save implements jobs.Saver: each image written (or found written as it
// arrived), and the kept copy of a masked edit's.
func (f *folder) Save(ctx context.Context, job jobs.Info, res *api.ImageResult, report honesty.Report, pics *imageio.EditPictures) []jobs.Saved {
	if res.DroppedPreviews > 0 {
		fmt.Fprintln(f.env.Stderr, "easel: "+catalogue.F("%d previews beyond those asked for (or broken) were not shown", res.DroppedPreviews))
	}
	out := make([]jobs.Saved, len(res.Images))
	for i, img := range res.Images {
		w, err := f.write(job.ID, i, img)
		out[i] = jobs.Saved{Err: err, Image: img}
		if err == nil && job.Request.Keep != nil && pics != nil {
			f.writeKept(job.Request.Keep, pics, i, w.k)
		}
	}
	if f.gallery.Lib != nil {
		// The gallery's items join the folder's outcomes: the runner
		// links them to the request's ledger entry, as the window's.
		for i, s := range f.gallery.Save(ctx, job, res, report, pics) {
			if s.Err != nil {
				fmt.Fprintln(f.env.Stderr, "easel: "+catalogue.F("image %d is in %s but could not join the gallery: %v", i+1, f.out, s.Err))
				continue
			}
			out = append(out, s)
		}
	}
	return out
}

// writeKept writes the i-th result with the unmasked area put back (the
// window's kept image), named after the k-th file.
func (f *folder) writeKept(keep *jobs.Keep, pics *imageio.EditPictures, i, k int) {
	if pics.Source == nil || pics.Result(i) == nil {
		return // the runner decoded no source: nothing to put back from
	}
	pics.KeepFrom(keep.Feather, keep.Frame)
	kept, err := pics.KeptResult(i)
	if err != nil {
		fmt.Fprintln(f.env.Stderr, "easel: "+catalogue.F("image %d: the unmasked area could not be put back (%v); the result is kept as the service sent it", i+1, err))
		return
	}
	data, err := kept.Bytes()
	if err == nil {
		var path string
		if path, err = keepFile(f.out, f.name(k)+"-kept", ".png", data); err == nil {
			f.said(path, "kept", "")
			return
		}
	}
	fmt.Fprintln(f.env.Stderr, "easel: "+catalogue.F("image %d: the unmasked area could not be put back (%v); the result is kept as the service sent it", i+1, err))
}

// said gives a written file's path: a line on stdout, or into --json's
// document.
func (f *folder) said(path, kind, job string) {
	if f.report != nil {
		f.report.file(path, kind, job)
		return
	}
	fmt.Fprintln(f.env.Stdout, path)
}

// KeepAside implements jobs.AsideKeeper: bytes the service sent that are
// no picture go into --out as .bin files, paid for and never thrown away.
func (f *folder) KeepAside(data []byte, job string, _ int) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path, err := keepFile(f.out, f.name(f.k)+"-unreadable", ".bin", data)
	if err == nil {
		f.report.file(path, "unreadable", job)
	}
	return path, err
}

// cliJournal is the runner's journal for the command line: the
// library's (when open), under a lock this process holds for each job
// (so another run tells a job at work from one a kill cut off), with each
// arrived image written into the folder as well as beside the entry.
type cliJournal struct {
	lib   saver.Journal
	files *folder

	mu    sync.Mutex
	holds map[string]func()
	// leave are the jobs a cancel stopped while the service worked: their
	// entries stay for the next run to tell.
	leave map[string]bool
}

// leaveFor marks a job to stay in the journal when it ends.
func (j *cliJournal) leaveFor(job string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.leave[job] = true
}

// Begin implements jobs.Journal.
func (j *cliJournal) Begin(ctx context.Context, info jobs.Info) error {
	if j.lib.Lib == nil {
		return nil
	}
	release, err := j.lib.Lib.Journal().HoldJob(info.ID)
	if err != nil {
		slog.Warn("journal: cannot hold a job", "job", info.ID, "err", err)
	} else {
		j.mu.Lock()
		j.holds[info.ID] = release
		j.mu.Unlock()
	}
	if err := j.lib.Begin(ctx, info); err != nil {
		fmt.Fprintln(j.files.env.Stderr, "easel: "+catalogue.F("the request could not be written down before sending (%v): a kill now would leave no trace of it", err))
	}
	return nil
}

// End implements jobs.Journal: crossed out, unless a cancel left it.
func (j *cliJournal) End(ctx context.Context, id string) error {
	j.mu.Lock()
	leave, release := j.leave[id], j.holds[id]
	delete(j.holds, id)
	j.mu.Unlock()
	var err error
	if j.lib.Lib != nil && !leave {
		err = j.lib.End(ctx, id)
	}
	if release != nil {
		release()
	}
	return err
}

// KeepArrived implements jobs.ArrivalKeeper: into --out at once, and
// beside the journal's entry for the next start's gallery.
func (j *cliJournal) KeepArrived(job string, n int, img api.Image) error {
	_, err := j.files.write(job, n, img)
	if j.lib.Lib != nil {
		err = errors.Join(err, j.lib.KeepArrived(job, n, img))
	}
	return err
}

// DropArrived implements jobs.ArrivalKeeper.
func (j *cliJournal) DropArrived(job string) {
	if j.lib.Lib != nil {
		j.lib.DropArrived(job)
	}
}
