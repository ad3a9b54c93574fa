// Package board is the comparison board: one prompt sent across two to
// six models, qualities or sizes at once, the results side by side, each
// with its time, cost, the prompt the service says it used and what it
// did not do; the designer keeps the winners and the rest go to the
// gallery's trash. It lives over the Text to image tab, which passes it
// its jobs' events.
package board

import (
	"context"
	"image"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/spend"
	"easel/internal/work"
	"easel/ui/jobview"
	"easel/ui/kit"
	"easel/ui/room"
	"easel/ui/widgets/picture"
)

// MaxCells bounds a board: six pictures still compare side by side.
const MaxCells = 6

// Axis is what varies across a board.
type Axis int

const (
	Model Axis = iota
	Quality
	Size
	// Profile sends the same request through several profiles (accounts,
	// gateways), each on its own key, at its own prices.
	Profile
)

func axisLabels() []string {
	return []string{catalogue.T("Model"), catalogue.T("Quality"), catalogue.T("Size"), catalogue.T("Profile")}
}

// With is base with the axis set to v.
func (a Axis) With(base api.ImageOptions, v string) api.ImageOptions {
	switch a {
	case Quality:
		base.Quality = v
	case Size:
		base.Size = v
	case Profile: // the profile's own image model, when it has one
	default:
		base.Model = v
	}
	base.N = 1
	return base
}

// Values splits what the user typed into at most MaxCells values.
func Values(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" && len(out) < MaxCells {
			out = append(out, v)
		}
	}
	return out
}

// cell is one value's picture and what came with it.
type cell struct {
	value   string
	job     string
	started time.Time
	pic     *picture.Picture
	state   *widget.Label
	said    *widget.Label
	// notes are what the cell's request was sent with: values changed to
	// what its model takes, what its service is known not to do.
	notes []string
	keep  *kit.Check
	open  *widget.Button
	items []int64
	ended bool
	box   *fyne.Container
}

// Host is what a board asks of the window: the connected service and
// the runner to send through, the ledger and the window for the budget
// question, and the gallery, which it opens a picture in and tells when
// it put discarded ones back.
type Host interface {
	room.ServiceHost
	room.BudgetHost
	// OpenItem shows a gallery item in the Gallery's details.
	OpenItem(id int64)
	// GalleryChanged says items were trashed or restored from the board.
	GalleryChanged()
}

// Board is an open comparison board.
type Board struct {
	host     Host
	prompt   *widget.Entry
	base     api.ImageOptions
	listed   []string
	axis     *widget.Select
	values   *widget.Entry
	estimate *widget.Label
	run      *widget.Button
	finish   *widget.Button
	status   *widget.Label
	undo     *widget.Button
	grid     *fyne.Container
	layout   *fitGrid
	scroll   *container.Scroll
	cells    []*cell
	d        *dialog.CustomDialog
	// Discarded are the items the last finish sent to the trash.
	Discarded []int64
	// A batch's requests not sent yet, how many may be in flight, and
	// how many are; nil pending for a comparison (all sent at once).
	pending     []pending
	concurrency int
	inFlight    int
	stopped     bool
	// onEnded runs when a batch has nothing pending or running; view
	// is a batch's template side.
	onEnded func()
	view    *batchView
	// edit, when the board compares an edit (Edit's Compare…), is the
	// edit as Edit would send it: its inputs, mask, kept area and
	// parents; each cell sends it with its own options.
	edit *jobs.Request
}

// pending is a batch's request waiting for a free slot, and its cell.
type pending struct {
	req  jobs.Request
	cell *cell
}

// Open shows a board for prompt over base's options; listed are the
// image models the service lists, offered as the models to compare.
func Open(h Host, prompt string, base api.ImageOptions, listed []string) *Board {
	return open(h, prompt, base, listed, nil)
}

// OpenEdit shows a board for an edit as Edit would send it (its inputs,
// mask, kept area and parents in edit): the same edit across models,
// qualities or profiles. The size is the edit's own, fixed by its first
// image and mask, so it is not an axis here.
func OpenEdit(h Host, edit jobs.Request, listed []string) *Board {
	return open(h, edit.Edit.Prompt, edit.Edit.ImageOptions, listed, &edit)
}

func open(h Host, prompt string, base api.ImageOptions, listed []string, edit *jobs.Request) *Board {
	b := &Board{host: h, base: base, listed: listed, edit: edit}
	b.prompt = widget.NewMultiLineEntry()
	b.prompt.Wrapping = fyne.TextWrapWord
	b.prompt.SetText(prompt)
	b.prompt.SetMinRowsVisible(2)
	b.values = &widget.Entry{OnChanged: func(string) { b.update() }}
	axes := axisLabels()
	if edit != nil {
		axes = slices.Delete(slices.Clone(axes), int(Size), int(Size)+1)
	}
	b.axis = widget.NewSelect(axes, func(string) { b.values.SetText(strings.Join(b.defaults(), ", ")) })
	b.estimate = kit.HintLabel("")
	b.status = kit.HintLabel("")
	b.run = &widget.Button{Text: catalogue.T("Send all"), Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: b.send}
	b.finish = &widget.Button{Text: catalogue.T("Keep the ticked, discard the rest"), Icon: theme.ConfirmIcon(), OnTapped: b.keepWinners}
	b.finish.Disable()
	b.layout = &fitGrid{width: cellSmall}
	b.grid = container.New(b.layout)
	form := widget.NewForm(
		widget.NewFormItem(catalogue.T("Prompt"), b.prompt),
		widget.NewFormItem(catalogue.T("Compare"), container.NewBorder(nil, nil, b.axis, nil, b.values)),
	)
	top := container.NewVBox(form, container.NewBorder(nil, nil, nil, b.run, b.estimate))
	b.undo = &widget.Button{Text: catalogue.T("Undo"), Icon: theme.ContentUndoIcon(), OnTapped: b.undoDiscard}
	b.undo.Hide()
	b.scroll = container.NewVScroll(b.grid)
	body := container.NewBorder(top, container.NewBorder(nil, nil, nil, container.NewHBox(b.undo, b.sizes()), b.status), nil, nil, b.scroll)
	b.d = dialog.NewCustomWithoutButtons(catalogue.T("Comparison board"), body, h.Window())
	b.d.SetButtons([]fyne.CanvasObject{b.finish, &widget.Button{Text: catalogue.T("Close"), OnTapped: b.d.Hide}})
	b.axis.SetSelected(axisLabels()[0])
	size := h.Window().Canvas().Size()
	b.d.Resize(fyne.NewSize(size.Width*0.94, size.Height*0.92))
	// A row's pictures fit under the form, with their lines, at fit size.
	b.layout.tall = size.Height*0.92 - 480
	b.d.Show()
	return b
}

// defaults are the values offered for the axis chosen.
func (b *Board) defaults() []string {
	switch b.chosenAxis() {
	case Quality:
		return []string{"low", "medium", "high"}
	case Size:
		return api.StandardSizes
	case Profile:
		var out []string
		cur := b.host.Service().Current()
		for _, p := range b.host.Service().Profiles() {
			// The demo is offered only when it is the one connected:
			// otherwise it may not have been started.
			if len(out) < 3 && (p.ID != config.DemoID || p.ID == cur.ID) {
				out = append(out, p.Name)
			}
		}
		return out
	}
	out := []string{b.base.Model}
	for _, m := range b.listed {
		// An edit is offered only the models that edit.
		if m != b.base.Model && len(out) < 3 && (b.edit == nil || api.Edits(m)) {
			out = append(out, m)
		}
	}
	return out
}

func (b *Board) chosenAxis() Axis {
	for i, l := range axisLabels() {
		if l == b.axis.Selected {
			return Axis(i)
		}
	}
	return Model
}

// requests are the board's requests, one per value: the prompt with
// the value's options, or the edit with them.
func (b *Board) requests() []jobs.Request {
	var out []jobs.Request
	for _, v := range Values(b.values.Text) {
		o := b.chosenAxis().With(b.base, v)
		if p, ok := b.profileOf(v); ok && p.ImageModel != "" {
			o.Model = p.ImageModel
		}
		// One set of options for several models: each cell sends its
		// model's nearest values (High is hd to dall-e-3) and says so.
		o, fitted := o.FitToSheet(time.Now())
		if b.edit != nil {
			e := *b.edit.Edit
			e.Prompt, e.ImageOptions = b.prompt.Text, o
			out = append(out, jobs.Request{Edit: &e, Parents: b.edit.Parents, Keep: b.edit.Keep, Fitted: fitted})
			continue
		}
		out = append(out, jobs.Request{Generate: &api.GenerateRequest{Prompt: b.prompt.Text, ImageOptions: o}, Fitted: fitted})
	}
	return out
}

// shown is the result a cell shows: of an edit whose unmasked area was
// kept, the kept one (it has Before), the one the user will keep;
// otherwise the first.
func shown(results []jobview.Result) (jobview.Result, bool) {
	for _, r := range results {
		if r.Before != nil && r.Thumb != nil {
			return r, true
		}
	}
	if len(results) > 0 && results[0].Thumb != nil {
		return results[0], true
	}
	return jobview.Result{}, false
}

// check is the request's check against a service's limits.
func check(r jobs.Request, l api.Limits) error {
	if r.Edit != nil {
		return r.Edit.Check(l)
	}
	return r.Generate.Check(l)
}

// profileOf is the profile a value names, when the board compares
// profiles; otherwise the connected one (ok false).
func (b *Board) profileOf(v string) (config.Profile, bool) {
	if b.chosenAxis() != Profile {
		return b.host.Service().Current(), false
	}
	return b.host.Service().Find(v)
}

// update says what sending would cost, or why it cannot be sent.
func (b *Board) update() {
	if b.estimate == nil {
		return
	}
	reqs := b.requests()
	switch {
	case len(reqs) < 2:
		b.estimate.SetText(catalogue.F("Give two to %d values, separated by commas.", MaxCells))
		b.run.Disable()
		return
	}
	if b.chosenAxis() == Profile { // each at its own prices, maybe in its own currency
		var each []string
		for i, v := range Values(b.values.Text) {
			p, ok := b.profileOf(v)
			if !ok {
				b.estimate.SetText(catalogue.F("No profile is called %q.", v))
				b.run.Disable()
				return
			}
			each = append(each, catalogue.F("%s: %s", p.Name, spend.Image(p.Prices, reqs[i].Generate, reqs[i].Edit).Amount()))
		}
		b.estimate.SetText(catalogue.F("%d requests, one image each: %s", len(reqs), strings.Join(each, " · ")))
		b.run.Enable()
		return
	}
	p := b.host.Service().Current()
	total := spend.Image(p.Prices, reqs[0].Generate, reqs[0].Edit)
	for _, r := range reqs[1:] {
		total = total.Plus(spend.Image(p.Prices, r.Generate, r.Edit))
	}
	b.estimate.SetText(catalogue.F("%d requests, one image each: %s", len(reqs), total))
	b.run.Enable()
}

// send submits one job per value, each on its profile's client, after
// the budget's question (each profile's own) when a request would pass
// it; each cell shows its job.
func (b *Board) send() {
	h := b.host
	if !room.Ready(h) {
		b.status.SetText(room.ServiceText(h))
		return
	}
	values, reqs := Values(b.values.Text), b.requests()
	left := len(reqs)
	failed := false
	for i := range reqs {
		p, _ := b.profileOf(values[i])
		h.Service().ClientFor(p, func(client *api.Client, err error) {
			if failed {
				return
			}
			if err == nil {
				err = check(reqs[i], client.Limits())
			}
			if err != nil {
				failed = true
				b.status.SetText(catalogue.F("%s: %s", values[i], kit.ErrorText(err)))
				return
			}
			reqs[i].Profile, reqs[i].Group, reqs[i].Service, reqs[i].Prices = p.ID, p.UsingGroup(), client, p.Prices
			if left--; left == 0 {
				b.guard(reqs, func() { b.submit(values, reqs) })
			}
		})
	}
}

// guard asks each profile's budget question in turn, then runs submit.
func (b *Board) guard(reqs []jobs.Request, submit func()) {
	byProfile := map[string][]jobs.Request{}
	var order []string
	for _, r := range reqs {
		if _, ok := byProfile[r.Profile]; !ok {
			order = append(order, r.Profile)
		}
		byProfile[r.Profile] = append(byProfile[r.Profile], r)
	}
	var next func(i int)
	next = func(i int) {
		if i == len(order) {
			submit()
			return
		}
		p, ok := b.host.Service().Find(order[i])
		if !ok {
			p = b.host.Service().Current()
		}
		room.GuardBudget(b.host, p, byProfile[order[i]], func() { next(i + 1) })
	}
	next(0)
}

// submit starts the board's jobs, a cell each.
func (b *Board) submit(values []string, reqs []jobs.Request) {
	b.cells = nil
	b.grid.Objects = nil
	for i, r := range reqs {
		c := newCell(b, values[i])
		r.Listener = b.listener()
		id, err := b.host.Runner().Submit(r)
		if err != nil {
			c.state.SetText(err.Error())
			c.ended = true
		}
		c.job, c.started = id, time.Now()
		b.cells = append(b.cells, c)
		b.grid.Add(c.box)
	}
	b.grid.Refresh()
	b.status.SetText(catalogue.T("Tick the pictures to keep; the rest go to the gallery's trash when you finish."))
}

func newCell(b *Board, value string) *cell {
	c := &cell{value: value, pic: picture.New(fyne.NewSize(pictureMin, pictureMin)), state: widget.NewLabel(catalogue.T("Queued")), said: kit.HintLabel("")}
	// A refusal is a sentence or two: wrapped in the cell, not cut at
	// its edge (#57).
	c.state.Wrapping = fyne.TextWrapWord
	c.keep = kit.NewCheck(catalogue.T("Keep"), func(bool) { b.syncFinish() })
	c.keep.Disable()
	c.open = &widget.Button{Text: catalogue.T("Open"), Icon: theme.ZoomInIcon(), Importance: widget.LowImportance, OnTapped: func() {
		if len(c.items) > 0 {
			b.d.Hide() // the gallery's details are under the board
			b.host.OpenItem(c.items[0])
		}
	}}
	c.open.Hide()
	// Titled by its value (wrapped: a profile's or model's name may be
	// long); the picture takes the cell's width (grid.go).
	title := kit.Heading(value)
	title.Wrapping = fyne.TextWrapWord
	// What the cell says (its state, a refusal, the values changed)
	// scrolls in a few lines' height under the picture: wrapped whole, a
	// long note made every cell of its row taller than the board.
	notes := container.NewVScroll(container.NewVBox(c.state, c.said))
	notes.SetMinSize(fyne.NewSize(0, notesHeight))
	c.box = container.NewBorder(title, container.NewVBox(notes, container.NewHBox(c.keep, c.open)), nil, nil, c.pic)
	return c
}

// sizes is the choice of the cells' size: larger on demand.
func (b *Board) sizes() *widget.Select {
	names := []string{catalogue.T("Fit the board"), catalogue.T("Large"), catalogue.T("Larger")}
	widths := []float32{cellSmall, cellMedium, cellLarge}
	s := widget.NewSelect(names, func(name string) {
		for i, n := range names {
			if n == name && b.layout.width != widths[i] {
				b.layout.width = widths[i]
				b.grid.Refresh()
			}
		}
	})
	s.SetSelected(names[0])
	return s
}

// listener hears the board's jobs' events and shows them on its cells.
func (b *Board) listener() func(jobs.Event) {
	return jobview.Listen(b.host.Work(), b.host.Library(), b.ShowJob)
}

// ShowJob follows one of the board's jobs: its preview, its end, what it
// cost and said.
func (b *Board) ShowJob(e jobs.Event, preview image.Image, results []jobview.Result) {
	var c *cell
	for _, x := range b.cells {
		if x.job == e.Job.ID {
			c = x
		}
	}
	if c == nil {
		return
	}
	if preview != nil {
		c.pic.SetImage(preview)
	}
	if e.State.Final() && !c.ended && b.concurrency > 0 {
		b.inFlight--
		defer b.sendNext()
	}
	c.ended = e.State.Final()
	switch e.State {
	case jobs.Done:
		c.items = e.ItemIDs
		if r, ok := shown(results); ok {
			c.pic.SetImage(r.Thumb)
		}
		line := catalogue.F("Done in %s", catalogue.Duration(e.Elapsed.Round(100*time.Millisecond)))
		if e.Charged != nil {
			if s := e.Charged.String(); s != "" {
				line += " · " + s
			}
		}
		c.state.SetText(line)
		c.keep.Enable()
		c.keep.SetChecked(len(c.items) > 0)
		c.open.Show()
		b.describe(c, e)
	case jobs.Failed, jobs.Cancelled, jobs.Interrupted:
		text := catalogue.T("Cancelled")
		if e.Err != nil {
			text = kit.ErrorText(e.Err)
		}
		c.state.SetText(text)
	case jobs.Partial:
		if !e.Preview.Final { // a board's cells ask for one image each
			c.state.SetText(catalogue.F("Preview %d · %s", e.Preview.Index+1, catalogue.Duration(e.Elapsed.Round(time.Second))))
		}
	default:
		c.waiting(e)
	}
	b.syncFinish()
}

// waiting shows a cell's job on its way: how long it has waited, and
// what its request was sent with (values changed to what its model
// takes, what its service is known not to do), said once it is sent.
func (c *cell) waiting(e jobs.Event) {
	if e.State == jobs.Sending && len(e.Notes) > 0 && e.Upload == nil {
		c.notes = e.Notes
		c.said.SetText(strings.Join(c.notes, " "))
	}
	c.state.SetText(catalogue.F("Waiting for the service · %s", catalogue.Duration(e.Elapsed.Round(time.Second))))
}

// describe shows what the service said of a finished cell: the prompt it
// used when it rewrote it, and what it did not do.
func (b *Board) describe(c *cell, e jobs.Event) {
	notes := append(slices.Clone(c.notes), kit.Sentences(e.Honesty.Sentences())...)
	lib := b.host.Library()
	if lib == nil || len(c.items) == 0 {
		c.said.SetText(strings.Join(notes, " "))
		return
	}
	id := c.items[0]
	work.Load(b.host.Work(), func(ctx context.Context) (library.Item, error) { return lib.Get(ctx, id) }, func(it library.Item, err error) {
		if err == nil && it.RevisedPrompt != "" && it.RevisedPrompt != it.Prompt {
			notes = append([]string{catalogue.F("The service used: %q", it.RevisedPrompt)}, notes...)
		}
		c.said.SetText(strings.Join(notes, " "))
	})
}

// syncFinish enables finishing once every cell's job has ended.
func (b *Board) syncFinish() {
	done := len(b.cells) > 0
	for _, c := range b.cells {
		done = done && c.ended
	}
	if done {
		b.finish.Enable()
	} else {
		b.finish.Disable()
	}
}

// keepWinners moves the pictures not ticked to the gallery's trash (an
// Undo in the status line brings them back) and closes the board.
func (b *Board) keepWinners() {
	var discard []int64
	kept := 0
	for _, c := range b.cells {
		if c.keep.Checked {
			kept += len(c.items)
			continue
		}
		discard = append(discard, c.items...)
	}
	lib := b.host.Library()
	if lib == nil {
		return
	}
	work.Run(b.host.Work(), func(ctx context.Context) error { return lib.Trash().Put(ctx, discard) }, func(err error) {
		if err != nil {
			dialog.ShowError(err, b.host.Window())
			return
		}
		b.finish.Disable()
		b.status.SetText(catalogue.F("Kept %d; %d went to the gallery's trash. Undo brings them back.", kept, len(discard)))
		b.Discarded = discard
		b.undo.Show()
		b.host.GalleryChanged()
	})
}

// undoDiscard brings back what the last finish sent to the trash.
func (b *Board) undoDiscard() {
	lib, ids := b.host.Library(), b.Discarded
	b.Discarded = nil
	b.undo.Hide()
	work.Run(b.host.Work(), func(ctx context.Context) error { return lib.Trash().Restore(ctx, ids) }, func(err error) {
		if err != nil {
			dialog.ShowError(err, b.host.Window())
			return
		}
		b.status.SetText(catalogue.N("%d pictures are back in the gallery.", len(ids), len(ids)))
		b.host.GalleryChanged()
	})
}
