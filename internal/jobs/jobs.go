// Package jobs runs every image request as a job in its own goroutine: a
// queue with a limit per profile, cancel at any time, and a stream of
// events for the window. A job's result is handed to a Saver, and only
// once the Saver has stored it does any event say the job is done — so a
// result survives the user switching tabs, closing the job's card, or the
// window being slow to draw.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/gateway"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
)

// State is where a job is in its life.
type State int

// The states, in the order a job normally passes through them.
const (
	Queued State = iota
	Sending
	Waiting
	Partial
	Saving
	Done
	Failed
	Cancelled
	// Interrupted is a job a kill or a close cut off while the service
	// worked on it, found in the journal at the next start: it may have
	// been charged; it can be sent again.
	Interrupted
)

var stateNames = [...]string{"queued", "sending", "waiting", "preview", "saving", "done", "failed", "cancelled", "interrupted"}

// String names the state for a job card.
func (s State) String() string { return stateNames[s] }

// Final reports whether no event follows this one.
func (s State) Final() bool { return s == Done || s == Failed || s == Cancelled || s == Interrupted }

// Request is one piece of work: exactly one of Generate and Edit is set.
type Request struct {
	// Profile names the account the job runs on; the limit is per profile.
	Profile  string
	Generate *api.GenerateRequest
	Edit     *api.EditRequest
	// Parents are the library items an edit's images came from, so the
	// result records its lineage.
	Parents []int64
	// Continues is the item whose picture an edit continues (its first
	// image): the edit is a turn of that picture's thread, a branch when
	// the picture was continued before. 0: no thread.
	Continues int64
	// Advice is the plan's (ReadPlan), when the submitter read one: the
	// runner shapes the request by it instead of reading the memory a
	// second time. Never kept.
	Advice *honesty.Advice
	// Way is how a turn went (library.WayResponses, WayImages), set by
	// the runner's lane; WayNote why it went through the Images API
	// when the service ruled the other way out. Never kept.
	Way, WayNote string
	// Replaces is the job this one sends again (a card's Retry): the
	// window shows it in that job's place rather than beside it.
	Replaces string
	// Keep, for an edit with a mask, asks that its results be kept a
	// second time with the first input's pixels put back where the mask
	// protects them; nil keeps only what the service sent.
	Keep *Keep
	// Marked says how an edit's marks went to the service (markup, or
	// drawn on the first image), for the job's card; "" for none.
	Marked string
	// Converted says which images were converted to sRGB before sending
	// (InSRGB), for the job's card; Fitted which values were changed to
	// the nearest its model takes (api.ImageOptions.FitToSheet: a
	// comparison board's cells).
	Converted, Fitted []string
	// Prices are the profile's prices when the job was submitted: what
	// the ledger writes its cost at.
	Prices pricing.Table
	// Group is the account group of the profile's key the job goes on
	// ("" its own key): what is learnt and billed is the key's.
	Group string
	// Listener hears this job's events, on the runner's goroutine, before
	// the runner's own listener does: the tab, board or command line that
	// asked shows them, and the window keeps only what is window-wide.
	// Nil for a job read back from the journal. Never kept.
	Listener func(Event)
	// Service runs this job; nil uses the runner's. The window sets it to
	// the client of the profile that was active at submit time, so
	// switching profiles never moves a running job to another account.
	Service Service
	// Lane is spend.LaneBatch for the answer of a request made through
	// the Batch API (its Service hands over what arrived): charged at the
	// batch's price. "" for a live request.
	Lane string
	// Journalled, when set, is the id of the job's entry already in the
	// journal (a batch's request): the job runs under that id and crosses
	// the entry out when it ends, without writing it down again.
	Journalled string
}

// Keep is how an edit's protected area is put back (imageio.KeepUnmasked).
type Keep struct {
	// Feather is how many pixels the seam blends over, into the area
	// that may change.
	Feather int
	// Frame is where the user's own picture sits in the first input
	// sent, when Easel padded it to a shape the model makes; the kept
	// result is cropped to it. Empty: the whole input.
	Frame image.Rectangle
	// First is the first image as the user gave it, when the one sent
	// differs from it in more than padding (marks drawn on it): the
	// unmasked area is kept from it. Nil: the first input sent.
	First []byte
}

// UserPicture is an edit's first image as the user gave it: not the
// upload padded to a shape the model makes (cropped back to its frame),
// nor a copy with marks drawn on it; sent is whether that is the image
// sent as it is. A kept result is compared with it.
func (req Request) UserPicture() (picture []byte, sent bool) {
	if req.Edit == nil || len(req.Edit.Images) == 0 {
		return nil, false
	}
	first, err := req.Edit.Images[0].Bytes()
	if err != nil {
		return nil, false
	}
	k := req.Keep
	switch {
	case k == nil:
		return first, true
	case k.First != nil && (k.Frame.Empty() || sized(imageio.PictureOf(k.First), k.Frame.Size())):
		return k.First, false
	case k.First != nil:
		if cropped, err := imageio.CropPNG(k.First, k.Frame); err == nil {
			return cropped, false
		}
	case !k.Frame.Empty():
		if cropped, err := imageio.CropPNG(first, k.Frame); err == nil {
			return cropped, false
		}
	}
	return first, true
}

// KeptPictures completes a masked edit's pictures for keeping its
// unmasked area: Source, the picture the kept area comes from (the first
// image before marks were drawn on it, else the one sent), and User, the
// user's own picture the kept copy is compared with (UserPicture), cut
// from the decoded upload rather than decoded again.
func (req Request) KeptPictures(p *imageio.EditPictures) *imageio.EditPictures {
	k := req.Keep
	if p == nil || k == nil {
		return p
	}
	p.Source = p.Original
	if k.First != nil {
		p.Source = imageio.PictureOf(k.First)
	}
	p.User = p.Source
	if !k.Frame.Empty() && !sized(p.Source, k.Frame.Size()) {
		if cropped, err := imageio.Cropped(p.Source, k.Frame); err == nil {
			p.User = cropped
		}
	}
	return p
}

// sized says whether p's header says it is size: the user's own picture
// rather than the upload padded around it.
func sized(p *imageio.Picture, size image.Point) bool {
	data, err := p.Bytes()
	if err != nil {
		return false
	}
	_, w, h, err := imageio.SniffImage(data)
	return err == nil && image.Pt(w, h) == size
}

// beginKept starts a kept edit's composites from its answer, beside
// what follows (EditPictures.KeepFrom).
func (req Request) beginKept(pics *imageio.EditPictures, res *api.ImageResult) {
	if k := req.Keep; k != nil && pics != nil {
		pics.Answered(honesty.ResultData(res))
		pics.KeepFrom(k.Feather, k.Frame)
	}
}

// Pictures are a masked edit's pictures for its answer res, as the
// runner makes them for the honesty figure (nil for any other job): for
// a saver given none, such as the next start's adoption of images that
// arrived before a kill.
func (req Request) Pictures(res *api.ImageResult) *imageio.EditPictures {
	if req.Edit == nil {
		return nil
	}
	pics := req.KeptPictures(honesty.AskedOf(nil, req.Edit).Pictures)
	pics.Answered(honesty.ResultData(res))
	return pics
}

// Service is what a job calls: api.Client satisfies it.
type Service interface {
	Generate(ctx context.Context, req api.GenerateRequest, onPartial func(api.Partial)) (*api.ImageResult, error)
	Edit(ctx context.Context, req api.EditRequest, onPartial func(api.Partial)) (*api.ImageResult, error)
}

// Saver stores a finished job's images, each on its own: one failure
// (a full disk, a file too large) must not throw the others away. It
// returns one Saved per image, in order, and runs on the job's goroutine
// before the done event.
type Saver interface {
	// Save's pics are a masked edit's pictures, decoded once for the
	// honesty figure and shared with the composite and thumbnails; nil
	// for any other job.
	Save(ctx context.Context, job Info, res *api.ImageResult, report honesty.Report, pics *imageio.EditPictures) []Saved
}

// SpaceChecker says whether n images of a size ("WxH", "auto") can be
// kept now (saver.Library asks the library): the runner's first step,
// so a paid request is never sent when its images would be lost to a
// full or read-only disk.
type SpaceChecker interface {
	CanSave(n int, size string) error
}

// AsideKeeper keeps the bytes of an image the service sent that Easel
// cannot read (saver.Library writes them beside the gallery): a Saver
// that is one is given them, and the job says where they are.
type AsideKeeper interface {
	KeepAside(data []byte, job string, n int) (string, error)
}

// Memory remembers what each service honours, per profile and model
// (library.Library satisfies it): a job asks it before sending, to shape
// the request to what works, and tells it what the answer showed.
type Memory interface {
	Known(ctx context.Context, k library.ServiceKey) ([]honesty.Known, error)
	Learn(ctx context.Context, k library.ServiceKey, checks []honesty.Check, at time.Time) error
}

// Saved is what became of one image a job received.
type Saved struct {
	// Item is its library id, when it was saved in the gallery; 0 for a
	// Saver that keeps images elsewhere (the command line's folder).
	Item int64
	// Err is why it could not be saved; the image is then kept in Image
	// so the user can save it elsewhere, as it was paid for.
	Err   error
	Image api.Image
}

// Unsaved is an image that arrived but could not be saved, with why.
type Unsaved struct {
	Image api.Image
	Err   error
	// Path is where the bytes were kept instead (UnsavedKeeper), "" when
	// no folder took them: then only Save as… holds them.
	Path string
}

// UnsavedKeeper is a Saver that can write a paid image it failed to
// save to a fallback folder, named by its job, so a disk that filled as
// the image was saved loses nothing.
type UnsavedKeeper interface {
	KeepUnsaved(img api.Image, job string, n int) (string, error)
}

// Info describes a job to a Saver and in events.
type Info struct {
	ID      string
	Request Request
	// Started is when the job was submitted.
	Started time.Time
	// Kept, for a job a kill cut off, are the gallery items of the
	// images that had arrived before it (ArrivalKeeper).
	Kept []int64
	// Answered, for a job found cut off at the next start, is a request
	// the service answered and the ledger holds as billed: its images
	// came and only their saving failed, so sending it again is a new
	// charge, never a free Retry. KeptAt are the fallback files its
	// images went to (UnsavedKeeper).
	Answered bool
	KeptAt   []string
	// Left, for a request of a batch found at a start, is why the batch
	// did not make it (it expired, was cancelled, the service refused
	// it): nothing was charged for it, and it can be sent again.
	Left string
}

// ArrivalKeeper is a Journal that keeps each image the moment it
// arrives, while its job is still out (one of four streamed), so a kill
// before the job ends loses no image that was paid for: the next start
// puts it in the gallery. The runner tells of an arrival only after it
// is kept.
type ArrivalKeeper interface {
	KeepArrived(job string, n int, img api.Image) error
	// DropArrived forgets job's arrived images once the gallery has had
	// its say on them: saved, or kept in a fallback folder.
	DropArrived(job string)
}

// Event is one change of a job, sent to the runner's listener.
type Event struct {
	Job   Info
	State State
	// Elapsed is the time since the job was submitted.
	Elapsed time.Duration
	// Upload, for Sending, is how far an edit's upload has gone: nil
	// before it starts and for a request without one.
	Upload *api.Upload
	// RetryIn, for Waiting, is how long until Easel sends the request
	// again after the service asked it to wait (a rate limit), 0 when
	// it is not waiting for that.
	RetryIn time.Duration
	// Preview is set for Partial.
	Preview *api.Partial
	// ItemIDs are the library ids of the saved images, for Done.
	ItemIDs []int64
	// Unsaved are the images that arrived but could not be saved, for
	// Done: the job is done (the service delivered and charged), and the
	// window offers to save them elsewhere.
	Unsaved []Unsaved
	// Dropped is how many images the service sent beyond those asked
	// for, for Done: not kept, and said once on the card.
	Dropped int
	// Err is why the job failed, for Failed.
	Err *api.Error
	// Notes, for Sending, are what the service is known not to do and
	// how the request was shaped for it ("No previews: …").
	Notes []string
	// Honesty, for Done, is what the answer did of what was asked.
	Honesty honesty.Report
	// Charged, for a final event of a request that may have been
	// billed, is what it was written down as costing; nil otherwise.
	// Verdict is the billing table's word on it: billed, or may have
	// been (a cancel while the service worked).
	Charged *spend.Charged
	Verdict gateway.Verdict
	// Before and BeforeData, for Done of an edit whose unmasked area
	// was kept, are the user's own picture at thumbnail size
	// (library.ThumbSize), made from the pixels the composite used, and
	// its bytes: the card compares the kept copy with it.
	Before     image.Image
	BeforeData []byte
	// Aside, for Done and Failed, says where the bytes of images the
	// service sent that are no picture were kept.
	Aside []string
}

// Runner runs jobs. The listener is called from the jobs' goroutines, one
// event at a time per job and in order; it must not block for long (the
// window hops to its own goroutine and returns).
type Runner struct {
	service  Service
	saver    Saver
	listener func(Event)
	limit    int
	tick     time.Duration
	memory   Memory
	journal  Journal
	ledger   Ledger
	threads  Threads

	mu     sync.Mutex
	limits map[string]int
	slots  map[string]chan struct{}
	jobs   map[string]context.CancelFunc
	// images is how many images each unfinished job asked for; out
	// marks those whose request has reached the service whole (a
	// generation once sent, an edit once its upload ended).
	images map[string]int
	out    map[string]bool
	wg     sync.WaitGroup
}

// Journal writes each job down before it is sent and crosses it out
// when it ends, so one a kill or a close cuts off is found at the next
// start (saver.Journal over the library satisfies it).
type Journal interface {
	Begin(ctx context.Context, job Info) error
	End(ctx context.Context, id string) error
}

// Ledger writes down what each request that may have been billed cost,
// before its images are saved (spend.Ledger over the library satisfies
// it).
type Ledger interface {
	Image(ctx context.Context, c spend.Charge) (spend.Charged, error)
	Judge(ctx context.Context, profile, group string, x gateway.Ending) gateway.Verdict
	Reword(ctx context.Context, profile, group string, e *api.Error)
	Attach(ctx context.Context, entry int64, items []int64) error
}

// jobSeq numbers the jobs of this process, across runners: with the
// clock's time it makes an id no other job here has, even where the clock
// ticks coarsely (Windows).
var jobSeq atomic.Int64

// Options tune a Runner.
type Options struct {
	// Limit is how many jobs run at once per profile (default 3).
	Limit int
	// Tick is how often a waiting job reports its elapsed time (default 1s).
	Tick time.Duration
	// Memory, when set, shapes each request to what its service is known
	// to honour and learns from each answer.
	Memory Memory
	// Journal, when set, writes each job down before it is sent.
	Journal Journal
	// Ledger, when set, writes down what each request cost.
	Ledger Ledger
	// Threads, when set, lets a thread's turn go through the Responses
	// API, continuing the answer its picture came from (lane.go).
	Threads Threads
}

// New makes a runner.
func New(service Service, saver Saver, listener func(Event), opts Options) *Runner {
	if opts.Limit <= 0 {
		opts.Limit = 3
	}
	if opts.Tick <= 0 {
		opts.Tick = time.Second
	}
	return &Runner{service: service, saver: saver, listener: listener, limit: opts.Limit, tick: opts.Tick, memory: opts.Memory, journal: opts.Journal, ledger: opts.Ledger, threads: opts.Threads,
		limits: map[string]int{}, slots: map[string]chan struct{}{}, jobs: map[string]context.CancelFunc{}, images: map[string]int{}, out: map[string]bool{}}
}

// SetLimit sets how many jobs of one profile run at once; n <= 0 returns
// to the runner's default. Jobs already running keep their slots.
func (r *Runner) SetLimit(profile string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n <= 0 {
		delete(r.limits, profile)
	} else {
		r.limits[profile] = n
	}
}

// Submit queues a job and returns its id at once.
func (r *Runner) Submit(req Request) (string, error) {
	if (req.Generate == nil) == (req.Edit == nil) {
		return "", errors.New("jobs: a request needs exactly one of Generate and Edit")
	}
	if req.Service == nil && r.service == nil {
		return "", errors.New("jobs: no service to run the request on")
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	info := Info{ID: fmt.Sprintf("job-%d-%d", time.Now().UnixNano(), jobSeq.Add(1)), Request: req, Started: time.Now()}
	if req.Journalled != "" {
		info.ID = req.Journalled
	}
	r.jobs[info.ID] = cancel
	r.images[info.ID] = req.imageCount()
	limit, ok := r.limits[req.Profile]
	if !ok {
		limit = r.limit
	}
	slot := r.slots[req.Profile]
	if slot == nil || cap(slot) != limit {
		slot = make(chan struct{}, limit)
		r.slots[req.Profile] = slot
	}
	r.wg.Add(1)
	r.mu.Unlock()
	go r.run(ctx, info, slot)
	return info.ID, nil
}

// Cancel stops a job in any state; a finished job is left as it is. It
// returns false for an unknown or finished job.
func (r *Runner) Cancel(id string) bool {
	r.mu.Lock()
	cancel, ok := r.jobs[id]
	r.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// Running is how many jobs have not finished.
func (r *Runner) Running() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.jobs)
}

// Wait blocks until every submitted job has finished.
func (r *Runner) Wait() { r.wg.Wait() }

func (r *Runner) emit(e Event) {
	e.Elapsed = time.Since(e.Job.Started)
	if l := e.Job.Request.Listener; l != nil {
		l(e)
	}
	if r.listener != nil {
		r.listener(e)
	}
}

func (r *Runner) run(ctx context.Context, info Info, slot chan struct{}) {
	defer r.wg.Done()
	defer r.forget(info.ID) // for a panic in the service or the saver
	// Queued comes from here, not from Submit: the listener is never
	// called on the submitter's goroutine, which may be inside the very
	// UI callback the listener's update would wait for.
	r.emit(Event{Job: info, State: Queued})
	select {
	case slot <- struct{}{}:
		defer func() { <-slot }()
	case <-ctx.Done():
		r.end(Event{Job: info, State: Cancelled})
		return
	}
	if sc, ok := r.saver.(SpaceChecker); ok {
		o := info.Request.Options()
		if err := sc.CanSave(max(o.N, 1), o.Size); err != nil {
			hint := catalogue.F("Nothing was sent or charged: %s. Free some space, or check the gallery's folder, then Retry.", err)
			if damaged := (*library.DamagedError)(nil); errors.As(err, &damaged) {
				hint = catalogue.F("Nothing was sent or charged: %s.", err)
			}
			r.end(Event{Job: info, State: Failed, Err: &api.Error{Kind: api.KindCannotKeep, Preflight: true, Err: err, Hint: hint}})
			return
		}
	}
	var notes []string
	info.Request, notes = r.shape(ctx, info.Request)
	// keepEntry leaves the job in the journal when it ends with paid
	// images kept in a fallback folder: the next start finds it there and
	// puts them in the gallery (saver.Journal.Interrupted).
	var keepEntry bool
	if r.journal != nil {
		// Written before anything is sent; crossed out however it ends.
		// A journal that cannot be written costs only the listing after
		// a kill, not the job.
		r.writeDown(ctx, info)
		defer func() {
			if keepEntry {
				return
			}
			if err := r.journal.End(context.WithoutCancel(ctx), info.ID); err != nil {
				slog.Warn("journal: a job's end could not be written", "job", info.ID, "err", err)
			}
		}()
	}
	if info.Request.Marked != "" {
		notes = append(notes, info.Request.Marked)
	}
	notes = append(append(notes, info.Request.Converted...), info.Request.Fitted...)
	info.Request, notes = r.lane(ctx, info.Request, notes)
	r.emit(Event{Job: info, State: Sending, Notes: notes})

	ctx, w := r.watch(ctx, info)
	service := info.Request.Service
	if service == nil {
		service = r.service
	}
	var res *api.ImageResult
	var err error
	if info.Request.Generate != nil {
		r.reached(info.ID)
		res, err = service.Generate(ctx, *info.Request.Generate, w.partial)
	} else {
		res, err = r.sendEdit(ctx, &info, service, w.partial, notes)
	}
	w.stop()

	asked := honesty.AskedOf(info.Request.Generate, info.Request.Edit)
	if err != nil {
		var ae *api.Error
		if errors.As(err, &ae) {
			r.learn(ctx, info, honesty.FromError(asked, ae))
		}
		var ue *api.UndecodedError
		var aside []string
		if errors.As(err, &ue) {
			aside = r.keepAside(info, ue.Images)
		}
		x := w.ending(err, ctx.Err() != nil)
		uploadStalled(ae, x)
		r.finishWithError(ctx, info, err, r.judge(ctx, info, x), aside)
		return
	}
	// Once the images have arrived they are paid for: they are saved even
	// if a cancel comes now, and the job ends as done.
	r.emit(Event{Job: info, State: Saving})
	asked.Pictures = info.Request.KeptPictures(asked.Pictures)
	info.Request.beginKept(asked.Pictures, res)
	report := honesty.Measure(asked, res)
	report.Restored = info.Request.Keep != nil && info.Request.Edit != nil && info.Request.Edit.Mask != nil
	r.learn(ctx, info, report.Checks)
	done := Event{Job: info, State: Done, Dropped: res.Dropped, Honesty: report, Aside: r.keepAside(info, res.Undecoded)}
	// Written down before the images are saved: a kill while they are
	// saved loses no entry.
	done.Charged, done.Verdict = r.charge(ctx, info, res, Done, gateway.Billed), gateway.Billed
	if keepEntry = r.save(ctx, info, res, report, asked.Pictures, &done); keepEntry && !slices.ContainsFunc(done.Unsaved, func(u Unsaved) bool { return u.Path == "" }) {
		// The job stays in the journal for its fallback files; its
		// arrived copies, some now in the gallery, must not be put there
		// again at the next start. Where an image is in no fallback
		// file, its arrived copy is all there is on disk, and stays.
		if keeper, ok := r.journal.(ArrivalKeeper); ok {
			keeper.DropArrived(info.ID)
		}
	}
	if done.Charged != nil && r.ledger != nil {
		if err := r.ledger.Attach(context.WithoutCancel(ctx), done.Charged.Entry, done.ItemIDs); err != nil {
			slog.Warn("ledger: a request's images could not be tied to its entry", "job", info.ID, "entry", done.Charged.Entry, "err", err)
		}
	}
	r.end(done)
}

// writeDown writes a job in the journal before it is sent, unless it is
// there already (a batch's request). A journal that cannot be written
// costs only the listing after a kill, not the job.
func (r *Runner) writeDown(ctx context.Context, info Info) {
	if info.Request.Journalled != "" {
		return
	}
	if err := r.journal.Begin(context.WithoutCancel(ctx), info); err != nil {
		slog.Warn("journal: a job could not be written down before sending", "job", info.ID, "err", err)
	}
}

// uploadStalled rewords a time-out that came while the upload still went
// out: the service was reading it too slowly, not working on it (#53: it
// suggested turning on streaming after 600 s of nothing).
func uploadStalled(e *api.Error, x gateway.Ending) {
	if e == nil || e.Kind != api.KindTimeout || !x.Unsent {
		return
	}
	e.Message = catalogue.T("the service took the upload too slowly: the time ran out before it had the whole request")
	e.Hint = catalogue.T("Nothing was charged: the service never had the whole request. Try again later, or send fewer or smaller images; a slow connection or a proxy that throttles uploads does this.")
}

// save puts a paid job's images in the gallery, recording them on done;
// one the gallery could not take goes to a fallback folder
// (UnsavedKeeper). It reports whether any went there: the job then stays
// in the journal, for the next start to put them in the gallery.
func (r *Runner) save(ctx context.Context, info Info, res *api.ImageResult, report honesty.Report, pics *imageio.EditPictures, done *Event) (keptAside bool) {
	fallback, keepsUnsaved := r.saver.(UnsavedKeeper)
	for _, s := range r.saver.Save(context.WithoutCancel(ctx), info, res, report, pics) {
		if s.Err == nil {
			if s.Item != 0 { // 0: saved where there is no gallery (a folder)
				done.ItemIDs = append(done.ItemIDs, s.Item)
			}
			continue
		}
		u := Unsaved{Image: s.Image, Err: s.Err}
		if keepsUnsaved {
			var err error
			if u.Path, err = fallback.KeepUnsaved(s.Image, info.ID, len(done.Unsaved)+1); err != nil {
				slog.Error("saver: a paid image could not be kept anywhere; only Save as… holds it", "job", info.ID, "err", err)
			}
			keptAside = keptAside || u.Path != ""
		}
		done.Unsaved = append(done.Unsaved, u)
	}
	// The card's picture of the user's original is made once the paid
	// images are on disk, not before.
	if pics != nil && pics.User != nil {
		if img, err := pics.User.Image(); err == nil {
			done.Before = imageio.Fit(img, library.ThumbSize)
			done.BeforeData, _ = pics.User.Bytes()
		}
	}
	return keptAside
}

// end reports a job's final event, once the job no longer counts as
// running: a listener that shows "Done" and then asks Running (the window
// asking before it quits) must not still find the job there. Its images
// are saved by now.
func (r *Runner) end(e Event) {
	r.forget(e.Job.ID)
	logOutcome(e)
	r.emit(e)
}

// logOutcome writes each request's end in the log, for a user asked to
// send it after a failure: what was asked of which model, how it ended,
// the service's status and request id, how long it took and what it
// cost; never the key, and the prompt only as a short hash (#58).
func logOutcome(e Event) {
	req := e.Job.Request
	o := req.Options()
	endpoint := "images/generations"
	prompt := ""
	if req.Edit != nil {
		endpoint, prompt = "images/edits", req.Edit.Prompt
		if req.Way == library.WayResponses {
			endpoint = "responses"
		}
	} else if req.Generate != nil {
		prompt = req.Generate.Prompt
	}
	attrs := []any{"job", e.Job.ID, "profile", req.Profile, "endpoint", endpoint, "model", o.Model, "n", max(o.N, 1),
		"prompt", fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(prompt))), "state", e.State.String(),
		"duration", time.Since(e.Job.Started).Round(time.Millisecond), "images", len(e.ItemIDs)}
	if e.Charged != nil {
		attrs = append(attrs, "cost", e.Charged.String())
	}
	switch {
	case e.State == Failed && e.Err != nil:
		attrs = append(attrs, "kind", e.Err.Kind.String(), "status", e.Err.Status, "request_id", e.Err.RequestID, "message", e.Err.Message)
		slog.Warn("request failed", attrs...)
	case len(e.Unsaved) > 0:
		slog.Warn("request answered; images not saved", append(attrs, "unsaved", len(e.Unsaved))...)
	default:
		slog.Info("request ended", attrs...)
	}
}

// forget releases a job's context and drops it from the running jobs; a
// second call does nothing.
func (r *Runner) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cancel, ok := r.jobs[id]; ok {
		cancel()
		delete(r.jobs, id)
		delete(r.images, id)
		delete(r.out, id)
	}
}

// reached marks a job's request as with the service: from now on a quit
// may leave it charged.
func (r *Runner) reached(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, running := r.jobs[id]; running {
		r.out[id] = true
	}
}

// ImagesAtService is how many of RunningImages belong to requests that
// reached the service: the rest (queued, or an edit still uploading)
// cannot have been charged yet.
func (r *Runner) ImagesAtService() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for id := range r.out {
		n += r.images[id]
	}
	return n
}

// RunningImages is how many images the unfinished jobs asked for: what a
// quit now would lose.
func (r *Runner) RunningImages() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.images {
		n += c
	}
	return n
}

// imageCount is how many images a request asks for (n, 1 when unset).
func (req Request) imageCount() int { return max(req.Options().N, 1) }

// WithOptions is req with change applied to its image options, on a copy
// of its generation or edit: the caller's request is left as it was.
func (req Request) WithOptions(change func(*api.ImageOptions)) Request {
	if req.Generate != nil {
		g := *req.Generate
		change(&g.ImageOptions)
		req.Generate = &g
	}
	if req.Edit != nil {
		e := *req.Edit
		change(&e.ImageOptions)
		req.Edit = &e
	}
	return req
}

// Options are the image options of the request, whichever kind it is.
func (req Request) Options() api.ImageOptions {
	switch {
	case req.Generate != nil:
		return req.Generate.ImageOptions
	case req.Edit != nil:
		return req.Edit.ImageOptions
	}
	return api.ImageOptions{}
}

func (r *Runner) finishWithError(ctx context.Context, info Info, err error, billed gateway.Verdict, aside []string) {
	var ae *api.Error
	if !errors.As(err, &ae) {
		ae = &api.Error{Kind: api.KindUnknown, Message: err.Error(), Err: err}
	}
	if r.ledger != nil {
		r.ledger.Reword(context.WithoutCancel(ctx), info.Request.Profile, info.Request.Group, ae)
	}
	e := Event{Job: info, State: Failed, Err: ae, Aside: aside}
	if ae.Kind == api.KindCancelled || ctx.Err() != nil {
		e = Event{Job: info, State: Cancelled}
	}
	if billed != gateway.NotBilled {
		e.Charged, e.Verdict = r.charge(ctx, info, nil, e.State, billed), billed
	}
	r.end(e)
}

// keepArrived writes an image that arrived while its job is out.
func (r *Runner) keepArrived(k ArrivalKeeper, info Info, p api.Partial) {
	format, w, h, err := imageio.SniffImage(p.Data)
	if err == nil {
		err = k.KeepArrived(info.ID, p.Image, api.Image{Data: p.Data, Format: format, Width: w, Height: h})
	}
	if err != nil {
		slog.Warn("journal: an image that arrived could not be kept before the job ended", "job", info.ID, "image", p.Image, "err", err)
	}
}

// keepAside hands the unreadable images' bytes to the saver, when it
// keeps such things, and returns where each went (or why not).
func (r *Runner) keepAside(info Info, images []api.Undecoded) []string {
	k, ok := r.saver.(AsideKeeper)
	if !ok || len(images) == 0 {
		return nil
	}
	var out []string
	for i, u := range images {
		path, err := k.KeepAside(u.Data, info.ID, i+1)
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		out = append(out, path)
	}
	return out
}

// charge writes a request down in the ledger; a ledger that cannot be
// written costs the entry, not the job.
func (r *Runner) charge(ctx context.Context, info Info, res *api.ImageResult, state State, v gateway.Verdict) *spend.Charged {
	if r.ledger == nil {
		return nil
	}
	outcome := map[State]string{Done: library.Billed, Failed: library.Failed, Cancelled: library.Cancelled}[state]
	// On an error the amount still stands: only its entry is lost.
	req := info.Request
	c, err := r.ledger.Image(context.WithoutCancel(ctx), spend.Charge{Prices: req.Prices, Profile: req.Profile, Group: req.Group, Job: info.ID,
		Generate: req.Generate, Edit: req.Edit, Result: res, Outcome: outcome, Verdict: v, Lane: req.Lane})
	if err != nil {
		slog.Error("ledger: a request's cost could not be written", "job", info.ID, "profile", req.Profile, "model", req.Options().Model, "err", err)
	}
	return &c
}

// judge is whether a failed request was billed, by the billing table of
// the key's gateway; without a ledger, by an unknown gateway's.
func (r *Runner) judge(ctx context.Context, info Info, x gateway.Ending) gateway.Verdict {
	if r.ledger == nil {
		return gateway.Judge(gateway.Unknown, x)
	}
	return r.ledger.Judge(context.WithoutCancel(ctx), info.Request.Profile, info.Request.Group, x)
}

// ServiceKey is what the memory keeps a request's traits under: its
// profile's key, its model and its endpoint.
func (req Request) ServiceKey() library.ServiceKey {
	return library.KeyFor(req.Profile, req.Group, req.Options().Model, req.Edit != nil)
}

// shape fits a request to what its service is known to honour, before it
// is sent: a stream the service ignores (or a streamed edit it fails) is
// asked without streaming. It returns the request to send and what the
// card should say. Nothing here resends anything: it shapes a request
// the user has just asked for.
func (r *Runner) shape(ctx context.Context, req Request) (Request, []string) {
	advice := req.Advice
	if advice == nil {
		if r.memory == nil {
			return req, nil
		}
		known, err := r.memory.Known(context.WithoutCancel(ctx), req.ServiceKey())
		if err != nil || len(known) == 0 {
			return req, nil
		}
		a := honesty.Advise(known, req.Options(), req.Edit != nil, req.Edit != nil && req.Edit.Mask != nil)
		advice = &a
	}
	if advice.Unstream {
		req = req.WithOptions(func(o *api.ImageOptions) { o.Stream, o.PartialImages = false, 0 })
	}
	// Splitting n into n requests is the window's offer, made before
	// submitting; the runner only says what it knows.
	return req, advice.Notes
}

// learn tells the memory what an answer showed. A failure to remember is
// not the job's failure.
func (r *Runner) learn(ctx context.Context, info Info, checks []honesty.Check) {
	if r.memory == nil || len(checks) == 0 {
		return
	}
	if err := r.memory.Learn(context.WithoutCancel(ctx), info.Request.ServiceKey(), checks, time.Now()); err != nil {
		slog.Warn("memory: what the service did could not be remembered", "job", info.ID, "err", err)
	}
}
