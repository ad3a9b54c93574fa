package room

import (
	"context"
	"errors"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/gateway"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
	"easel/internal/work"
	"easel/ui/dragout"
	"easel/ui/imageform"
	"easel/ui/jobview"
	"easel/ui/kit"
	"easel/ui/widgets/compare"
	"easel/ui/widgets/dragsource"
)

// Sender is the sending side that Text to image and Edit share: the
// options form, the send button and the line beside it, kept in step with
// the connected service. A tab embeds it, which gives the tab
// ServiceChanged and Connected.
type Sender struct {
	host    SendHost
	options *imageform.Form
	button  *widget.Button
	status  *widget.Label
	// undo, beside the button, takes back what the status line says
	// was just done to the tab (a prompt replaced); hidden otherwise.
	undo *widget.Button
	// estimate says beside the button what the request will cost at
	// the profile's prices (spend.Options), or that no price is set.
	estimate *widget.Label
	// advice is shared by every copy of the Sender (a tab embeds one):
	// the form's change hook holds one copy, the tab another.
	advice *advice
	// drag carries a card's result out of the window when it is
	// dragged; shared by every copy, as advice is.
	drag *dragout.Gesture
}

// advice is the state of the notes under the form.
type advice struct {
	// editing says whether the tab sends edits, and with a mask.
	editing func() (edit, masked bool)
	// inputs says how many images an edit sends, and at high fidelity,
	// for the estimate.
	inputs func() (n int, high bool)
	// prompt is the tab's prompt, whose tokens the estimate counts.
	prompt func() string
	// refused says the status line shows a refusal of the options as
	// they were sent: the next change of them puts the ready line back.
	refused bool
	// entry is the tab's prompt (SetPrompt); draft holds a restored
	// draft's options until the profile's defaults have been applied
	// (Connected), so they do not overwrite what the user left.
	entry *widget.Entry
	draft *Draft
	// show puts a job's event on its card (the tab's ShowJob): the jobs
	// the sender submits carry listen as their listener. Here, with the
	// state every copy of the Sender shares.
	show func(e jobs.Event, preview image.Image, results []jobview.Result)
}

// OnJob sets what shows the events of the jobs this sender submits.
func (s *Sender) OnJob(show func(e jobs.Event, preview image.Image, results []jobview.Result)) {
	s.advice.show = show
}

// listener is what hears the events of a job this sender submits: the
// tab's cards (OnJob); nil before the tab set them.
func (s *Sender) listener() func(jobs.Event) {
	if s.advice.show == nil {
		return nil
	}
	return jobview.Listen(s.host.Work(), s.host.Library(), s.advice.show)
}

// NewSender makes the form, the button (labelled text, running send when
// tapped) and the status line; extra rows go first in the form.
func NewSender(h SendHost, text string, icon fyne.Resource, send func(), extra ...*widget.FormItem) Sender {
	s := Sender{host: h, advice: &advice{editing: func() (bool, bool) { return false, false }, inputs: func() (int, bool) { return 0, false }, prompt: func() string { return "" }}}
	s.drag = &dragout.Gesture{Window: h.Window(), Do: h.Work().Do}
	s.drag.Note = func(text string) {
		if text == "" {
			text = ServiceText(h) // the drag is over: the line as it was
		}
		s.SetStatus(text)
	}
	s.estimate = widget.NewLabel("")
	s.estimate.Importance = widget.LowImportance
	// Wrapped, not cut (it was always cut in Edit's panel, #57).
	s.estimate.Wrapping = fyne.TextWrapWord
	s.estimate.Alignment = fyne.TextAlignTrailing
	s.estimate.Hide()
	cur := h.Service().Current()
	s.options = imageform.New(h.Models().New(api.EndpointImages, catalogue.T("Image model, e.g. gpt-image-1"), "gpt-image-1"), extra...)
	s.options.ApplyDefaults(cur.ImageModel, cur.Image)
	s.button = &widget.Button{Text: text, Icon: icon, Importance: widget.HighImportance, OnTapped: send}
	s.status = kit.HintLabel(ServiceText(h))
	s.undo = &widget.Button{Text: catalogue.T("Undo"), Icon: theme.ContentUndoIcon(), Importance: widget.LowImportance}
	s.undo.Hide()
	s.setReady()
	s.options.OnChanged = s.Advise
	s.options.OnEdited = s.edited
	return s
}

// edited puts the ready line back once the options change, when it shows
// a refusal of the options that were sent before (a size the service
// takes no longer needs "Try 1008x1008").
func (s *Sender) edited() {
	if s.advice.refused {
		s.advice.refused = false
		s.status.SetText(ReadyText(s.host))
	}
	// The estimate follows every option: size and quality price it.
	s.UpdateEstimate()
}

// Advise says beside the button what the request will cost at list
// prices and, under the form, before anything is sent, what the
// connected service is known not to do with the form's options for its
// model (honesty.Advise over what the library remembers): no previews,
// one image per request. The memory is a handful of rows read by primary
// key from the WAL database, which no writer blocks: it is read here, on
// the UI goroutine, so the note always matches the options shown.
func (s *Sender) Advise() {
	s.UpdateEstimate()
	o := s.options.Options()
	o.Model = s.options.Model.Text()
	lib := s.host.Library()
	if lib == nil || s.host.Service().Client() == nil {
		s.options.SetServiceNotes(nil)
		return
	}
	edit, masked := s.advice.editing()
	p := s.host.Service().Current()
	known, err := lib.Memory().Known(s.host.Work().Context(), library.KeyFor(p.ID, p.UsingGroup(), o.Model, edit))
	if err != nil {
		known = nil
	}
	s.options.SetServiceNotes(honesty.Advise(known, o, edit, masked).Notes)
}

// UpdateEstimate says under the button what a request with the form's
// options will cost at the connected profile's prices (the demo
// service's are the list prices): the same figure `easel gen
// --estimate` prints. Called alone when only what the estimate counts
// changed (an edit's number of inputs), not the options the service's
// notes follow.
func (s *Sender) UpdateEstimate() {
	o := s.options.Options()
	o.Model = s.options.Model.Text()
	n, high := s.advice.inputs()
	fidelity := ""
	if high {
		fidelity = "high"
	}
	// At every keystroke and for each reference added: set only when it
	// changed.
	kit.SetText(s.estimate, spend.Options(s.prices(), o, s.advice.prompt(), n, fidelity).String())
	s.estimate.Show()
}

// prices are the connected profile's for its key in use: the group rate
// of that key, the gateway's where it publishes one (a few rows read by
// primary key, as Advise reads the memory).
func (s *Sender) prices() pricing.Table {
	p := s.host.Service().Current()
	var f gateway.Facts
	if lib := s.host.Library(); lib != nil && p.ID != "" {
		f, _, _ = lib.Ledger().GatewayFacts(s.host.Work().Context(), p.ID, p.UsingGroup())
	}
	return spend.KeyTable(p, f)
}

// SetPrompt tells the estimate where the tab's prompt is (its tokens are
// billed) and keeps the estimate in step as it is typed.
func (s *Sender) SetPrompt(e *widget.Entry) {
	s.advice.prompt = func() string { return e.Text }
	s.advice.entry = e
	prev := e.OnChanged
	e.OnChanged = func(text string) {
		if prev != nil {
			prev(text)
		}
		s.UpdateEstimate()
	}
}

// Estimate is what the line beside the button says the request will
// cost, for tests.
func (s *Sender) Estimate() string { return s.estimate.Text }

// ActionRow is the status line with the send button at its end, and
// under the button what the request will cost, for a tab to keep in
// sight below its scrolling form.
func (s *Sender) ActionRow() fyne.CanvasObject {
	// The estimate above the row: wrapped, a model billed by usage says
	// five lines of it in Edit's narrow panel, and under the button it
	// moved the button up by as many.
	return container.NewPadded(container.NewVBox(s.estimate, container.New(&actionLayout{}, s.status, container.NewHBox(s.undo, s.button))))
}

// Options is the options form.
func (s *Sender) Options() *imageform.Form { return s.options }

// Button is the send button.
func (s *Sender) Button() *widget.Button { return s.button }

// StatusText is the line beside the button: why nothing can be sent, or
// what a check refused.
func (s *Sender) StatusText() string { return s.status.Text }

// SetStatus shows text beside the button.
func (s *Sender) SetStatus(text string) {
	s.undo.Hide()
	s.status.SetText(text)
}

// SetStatusUndo shows text beside the button with an Undo that runs
// undo once and clears the line.
func (s *Sender) SetStatusUndo(text string, undo func()) {
	s.status.SetText(text)
	s.undo.OnTapped = func() {
		undo()
		s.SetStatus("")
	}
	s.undo.Show()
}

// Undo taps the status line's Undo, for tests; it reports whether one
// was offered.
func (s *Sender) Undo() bool {
	if s.undo.Hidden {
		return false
	}
	s.undo.OnTapped()
	return true
}

func (s *Sender) setReady() {
	if Ready(s.host) {
		s.button.Enable()
	} else {
		s.button.Disable()
	}
}

// ServiceChanged implements Room: sending is enabled only with a
// service and a gallery, and the line says which service or why not.
func (s *Sender) ServiceChanged() {
	s.setReady()
	s.status.SetText(ReadyText(s.host))
	s.Advise()
}

// SetEditing tells the advice under the form that the tab sends edits;
// masked reports whether the next one has a mask, inputs how many images
// it sends and whether at high fidelity (they are billed too).
func (s *Sender) SetEditing(masked func() bool, inputs func() (n int, high bool)) {
	s.advice.editing = func() (bool, bool) { return true, masked() }
	s.advice.inputs = inputs
}

// Connected implements Room: the profile's default model and options go
// into the form.
func (s *Sender) Connected() {
	p := s.host.Service().Current()
	s.options.ApplyDefaults(p.ImageModel, p.Image)
	if d := s.advice.draft; d != nil {
		s.advice.draft = nil
		s.options.SetOptions(d.Options)
		if d.Match {
			s.options.MatchFirst()
		}
	}
}

// Cancel cancels a job by id (a job card's Cancel).
func (s *Sender) Cancel(id string) {
	if r := s.host.Runner(); r != nil {
		r.Cancel(id)
	}
}

// JobActions are what the tab's job cards do: cancel, open a result,
// retry a failure, open Settings for one the profile must fix.
func (s *Sender) JobActions() jobview.Actions {
	return jobview.Actions{Cancel: s.Cancel, Open: s.host.OpenItem, Retry: s.Retry, Settings: s.host.ShowSettings,
		SaveAs: s.host.SaveImageAs, EditThis: s.host.EditItem, MoreLike: s.host.MoreLikeItem, OtherGroup: s.OtherGroup,
		Compare: s.compareLarge, DragOut: s.dragOut}
}

// dragOut follows the drag of a card's result (a gallery item) out of
// the window, to another app; the line beside the button says how it
// goes.
func (s *Sender) dragOut(item int64, p dragsource.Phase) {
	if p == dragsource.Began {
		s.drag.Paths = func() ([]string, error) {
			lib := s.host.Library()
			if lib == nil {
				return nil, nil
			}
			it, err := lib.Get(s.host.Work().Context(), item)
			if err != nil {
				return nil, err
			}
			return []string{lib.Path(it)}, nil
		}
	}
	s.drag.Follow(p)
}

// compareLarge decodes the first input and a result off the UI goroutine
// and shows them large, before and after (a job card's Compare…).
func (s *Sender) compareLarge(before []byte, after string) {
	compare.ShowDecoded(s.host.Window(), s.host.Work().Do, catalogue.T("Before and after"), func() (image.Image, image.Image, error) {
		a, errA := imageio.FitForScreen(before, compareSide)
		b, errB := imageio.DecodeFileFit(after, compareSide)
		return a, b, errors.Join(errA, errB)
	})
}

// compareSide is the longest side the large compare decodes to.
const compareSide = 1600

// OtherGroup looks off the UI goroutine for another group of the
// connected profile whose key lists model (session.GroupListing); found
// gets its name and a send that runs req again on that group's key.
func (s *Sender) OtherGroup(model string, req jobs.Request, found func(group string, send func())) {
	sess := s.host.Service()
	p := sess.Current()
	if len(p.Groups) == 0 || req.Profile != p.ID {
		return
	}
	type listing struct {
		group  string
		client *api.Client
	}
	work.Load(s.host.Work(), func(ctx context.Context) (listing, error) {
		g, client, ok := sess.Keys().OtherGroupListing(ctx, p, model)
		if !ok {
			return listing{}, errNoGroup
		}
		return listing{g, client}, nil
	}, func(l listing, err error) {
		if err != nil {
			return
		}
		found(l.group, func() {
			again := req
			again.Service, again.Group = l.client, l.group // billed and learnt as that key's
			s.Retry(again)
		})
	})
}

// errNoGroup is OtherGroup's load finding no other group that lists the
// model: nothing to offer.
var errNoGroup = errors.New("no other group lists the model")

// Retry sends a failed job's request again, as it was (same profile,
// same client, same options); an interrupted one from before the last
// close goes to the profile connected now.
func (s *Sender) Retry(req jobs.Request) {
	r := s.host.Runner()
	if r == nil {
		s.status.SetText(ServiceText(s.host))
		return
	}
	if req.Service == nil {
		// A job from before the last close (the journal's): it goes to
		// the profile connected now.
		cur := s.host.Service().Current()
		req.Profile, req.Group, req.Service, req.Prices = cur.ID, cur.UsingGroup(), s.host.Service().Client(), cur.Prices
		if req.Service == nil {
			s.status.SetText(ServiceText(s.host))
			return
		}
	}
	req.Listener = s.listener()
	// Whether the gallery can keep the images is the runner's first
	// step (jobs.SpaceChecker): a job that cannot is not sent, and says so
	// on its card.
	p := s.host.Service().Current()
	if other, ok := s.host.Service().Find(req.Profile); ok {
		p = other // a retry goes to the profile it was sent on
	}
	GuardBudget(s.host, p, []jobs.Request{req}, func() {
		if _, err := r.Submit(req); err != nil {
			s.status.SetText(err.Error())
		}
	})
}

// Send checks req with check and submits it as a job, or says on the
// status line why not; opts is the request's options.
func (s *Sender) Send(check func(api.Limits) error, opts *api.ImageOptions, req jobs.Request) {
	if !Ready(s.host) {
		s.status.SetText(ServiceText(s.host))
		return
	}
	if err := check(s.host.Service().Client().Limits()); err != nil {
		s.status.SetText(kit.ErrorText(err))
		s.advice.refused = true
		return
	}
	s.status.SetText("")
	req.Listener = s.listener()
	submitAsked(s.host, s.options.Model, opts, req, s.status.SetText, s.useNearest)
}

// useNearest puts in the form the nearest values the model takes for
// those the service refused before, and sends again.
func (s *Sender) useNearest(refused []honesty.Refusal) {
	for _, r := range refused {
		if r.Nearest != "" {
			s.options.SetValue(r.Field, r.Nearest)
		}
	}
	s.button.OnTapped()
}
