// Package batches shows the window's batches of the Batch API: a card
// for each, from the moment it is made until everything it brought is
// in the gallery, followed on the window's work scope and picked up
// again at the next start when the window was closed before it ended.
// The following and the landing are batchlane's, as on the command line.
package batches

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/batchlane"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/work"
	"easel/ui/kit"
	"easel/ui/room"
)

// Lanes are the two ways a set of requests can go, as a choice offers
// them: now, or cheaper as one batch of the Batch API.
func Lanes() []string {
	return []string{catalogue.T("Now"), catalogue.T("Cheaper, within 24 h")}
}

// Cheaper reports whether lane (one of Lanes) is the Batch API's.
func Cheaper(lane string) bool { return lane == Lanes()[1] }

// Host is what the panel needs of the window.
type Host interface {
	room.ServiceHost
	room.BudgetHost
	// Notify tells the desktop, unless the window is in front and
	// evenInFront is false.
	Notify(title, body string, evenInFront bool)
}

// Panel is the window's batches, newest on top. Use it on the UI
// goroutine.
type Panel struct {
	// Box is the cards, for a tab to lay out.
	Box   *fyne.Container
	host  Host
	cards map[string]*card
	// poll is the first wait between two reads of a batch's status.
	poll time.Duration
}

// New makes an empty panel; poll is the first wait between two reads
// of a batch's status (0: batchlane's).
func New(h Host, poll time.Duration) *Panel {
	return &Panel{Box: container.NewVBox(), host: h, cards: map[string]*card{}, poll: poll}
}

// lane is the Batch API of c's service.
func (p *Panel) lane(c *api.Client) *batchlane.Lane {
	return batchlane.New(c, p.host.Library(), batchlane.Options{Poll: p.poll})
}

// Offered asks c's service whether it takes batches; then hears, on the
// UI goroutine, whether it does and why not in words.
func (p *Panel) Offered(c *api.Client, then func(ok bool, why string)) {
	if p.host.Library() == nil {
		then(false, catalogue.T("the gallery could not be opened, and a batch is kept there until it is done"))
		return
	}
	type offer struct {
		ok  bool
		why string
	}
	work.Load(p.host.Work(), func(ctx context.Context) (offer, error) {
		ok, why, err := p.lane(c).Offered(ctx)
		return offer{ok, why}, err
	}, func(o offer, err error) {
		if err != nil {
			o.why = kit.ErrorText(err)
		}
		then(o.ok, o.why)
	})
}

// Send makes one batch of reqs on c's service (prof's) and follows it;
// then hears how the making went, on the UI goroutine.
func (p *Panel) Send(c *api.Client, prof config.Profile, reqs []jobs.Request, label string, then func(error)) {
	for i := range reqs {
		reqs[i].Profile, reqs[i].Group = prof.ID, prof.UsingGroup()
	}
	work.Load(p.host.Work(), func(ctx context.Context) (library.BatchRecord, error) {
		return p.lane(c).Send(ctx, batchlane.Batch{Requests: reqs, Label: label})
	}, func(rec library.BatchRecord, err error) {
		if err == nil {
			p.follow(c, prof, rec, false)
		}
		then(err)
	})
}

// Render sends one request in the Responses API's background mode on c's
// service (prof's) and follows it as a batch of one; then hears how the
// sending went, on the UI goroutine.
func (p *Panel) Render(c *api.Client, prof config.Profile, req jobs.Request, label string, then func(error)) {
	req.Profile, req.Group = prof.ID, prof.UsingGroup()
	work.Load(p.host.Work(), func(ctx context.Context) (library.BatchRecord, error) {
		return p.lane(c).Render(ctx, req, label, "", "")
	}, func(rec library.BatchRecord, err error) {
		if err == nil {
			p.follow(c, prof, rec, false)
		}
		then(err)
	})
}

// Resume follows again the window's batches that had not ended when it
// last closed, each on the profile and key it was made with.
func (p *Panel) Resume() {
	lib := p.host.Library()
	if lib == nil {
		return
	}
	work.Load(p.host.Work(), func(ctx context.Context) ([]library.BatchRecord, error) {
		return lib.Journal().Batches().Pending(ctx)
	}, func(pending []library.BatchRecord, _ error) {
		for _, rec := range pending {
			if rec.Owner != "" {
				continue // the command line's: `easel jobs --wait` follows it
			}
			prof, ok := p.host.Service().Find(rec.Profile)
			if !ok {
				p.cardOf(rec).sayFailed(catalogue.F("its profile (%s) is gone: the batch goes on at the service, but Easel cannot read it without its key", rec.Profile))
				continue
			}
			p.host.Service().ClientFor(prof, func(c *api.Client, err error) {
				if err != nil {
					p.cardOf(rec).sayFailed(kit.ErrorText(err))
					return
				}
				p.follow(c, prof, rec, true)
			})
		}
	})
}

// follow shows rec's card and follows it on the work scope until it
// ends, landing its answers through the window's runner. A batch that
// ends is told of on the desktop when the window is not in front, or
// when it ended while Easel was closed (resumed).
func (p *Panel) follow(client *api.Client, prof config.Profile, rec library.BatchRecord, resumed bool) {
	lane := p.lane(client)
	c := p.cardOf(rec)
	c.show(rec, time.Time{})
	c.cancel.OnTapped = func() {
		c.cancel.Disable()
		work.Run(p.host.Work(), func(ctx context.Context) error { return lane.Cancel(ctx, rec.ID) }, func(err error) {
			if err != nil {
				c.note.SetText(kit.ErrorText(err))
			}
		})
	}
	s := p.host.Work()
	land := batchlane.Through(p.host.Runner(), func(req *jobs.Request) { req.Prices = prof.Prices })
	work.Load(s, func(ctx context.Context) (library.BatchRecord, error) {
		return lane.Follow(ctx, rec.ID, land, func(pr batchlane.Progress) {
			s.Do(func() { c.show(pr.Record, pr.Next) })
		})
	}, func(end library.BatchRecord, err error) {
		if err != nil {
			c.sayFailed(kit.ErrorText(err))
			return
		}
		c.show(end, time.Time{})
		if left := end.Total - end.Completed; left > 0 && !c.render {
			c.offerResend(left, func() { p.resend(client, prof, end, c) })
		}
		p.host.Notify(catalogue.T("Batch done"), c.endWords(end), resumed)
	})
}

// resend sends what an ended batch did not make as a new batch, through
// the same lane at its price.
func (p *Panel) resend(client *api.Client, prof config.Profile, rec library.BatchRecord, c *card) {
	c.resend.Disable()
	work.Load(p.host.Work(), func(ctx context.Context) ([]jobs.Request, error) {
		return p.lane(client).Left(ctx, rec.ID)
	}, func(reqs []jobs.Request, err error) {
		if err != nil || len(reqs) == 0 {
			c.note.SetText(kit.ErrorText(err))
			return
		}
		c.resend.Hide()
		p.Send(client, prof, reqs, rec.Label, func(err error) {
			if err != nil {
				c.note.SetText(kit.ErrorText(err))
			}
		})
	})
}

// cardOf is rec's card, made and put on top the first time.
func (p *Panel) cardOf(rec library.BatchRecord) *card {
	if c, ok := p.cards[rec.ID]; ok {
		return c
	}
	c := newCard(rec, func(id string) {
		p.Box.Remove(p.cards[id].root)
		delete(p.cards, id)
	})
	p.cards[rec.ID] = c
	p.Box.Objects = append([]fyne.CanvasObject{c.root}, p.Box.Objects...)
	p.Box.Refresh()
	return c
}

// Card is the card of batch id, for tests: its status line and note.
func (p *Panel) Card(id string) (status, note string, ok bool) {
	c, ok := p.cards[id]
	if !ok {
		return "", "", false
	}
	return c.status.Text, c.note.Text, true
}

// card is one batch's card.
type card struct {
	root           *fyne.Container
	title, status  *widget.Label
	note           *widget.Label
	bar            *widget.ProgressBar
	cancel, remove *widget.Button
	// render marks a background render: a batch of one.
	render bool
	// resend sends what the batch did not make as a new batch.
	resend *widget.Button
	counts library.BatchRecord
}

func newCard(rec library.BatchRecord, remove func(id string)) *card {
	title := catalogue.F("Batch: %s", kit.Shorten(rec.Label, 80))
	if rec.Endpoint == api.RenderEndpoint {
		title = catalogue.F("In the background: %s", kit.Shorten(rec.Label, 80))
	}
	c := &card{title: kit.Heading(title), status: widget.NewLabel(""), note: kit.HintLabel(""),
		bar: widget.NewProgressBar()}
	c.status.Wrapping = fyne.TextWrapWord
	c.cancel = &widget.Button{Text: catalogue.T("Cancel batch"), Icon: theme.CancelIcon(), Importance: widget.LowImportance}
	c.remove = &widget.Button{Text: catalogue.T("Clear"), Icon: theme.ContentClearIcon(), Importance: widget.LowImportance, OnTapped: func() { remove(rec.ID) }}
	c.remove.Hide()
	c.render = rec.Endpoint == api.RenderEndpoint
	if c.render {
		c.cancel.SetText(catalogue.T("Cancel render"))
	}
	c.resend = &widget.Button{Icon: theme.ViewRefreshIcon(), Importance: widget.MediumImportance}
	c.resend.Hide()
	c.root = container.NewVBox(c.title, c.status, c.bar, c.note, container.NewHBox(c.cancel, c.resend, c.remove), widget.NewSeparator())
	return c
}

// offerResend offers to send the n requests the batch did not make as a
// new batch.
func (c *card) offerResend(n int, send func()) {
	c.resend.SetText(catalogue.N("Send the %d not made as a new batch", n, n))
	c.resend.OnTapped = send
	c.resend.Show()
}

// Resend taps the card's resend, for tests; false when it is not offered.
func (p *Panel) Resend(id string) bool {
	c, ok := p.cards[id]
	if !ok || !c.resend.Visible() {
		return false
	}
	c.resend.OnTapped()
	return true
}

// show says where rec is: its status and counts, when it is read again,
// and that it survives the window closing.
func (c *card) show(rec library.BatchRecord, next time.Time) {
	c.counts = rec
	c.bar.Max = float64(max(rec.Total, 1))
	c.bar.SetValue(float64(rec.Completed + rec.Failed))
	age := time.Since(rec.Created).Round(time.Second)
	if age > time.Minute {
		age = age.Round(time.Minute)
	}
	line := catalogue.F("%s · %d of %d done, %d failed · made %s ago", sentenceCase(batchlane.StatusWords(rec.Status)), rec.Completed, rec.Total, rec.Failed,
		catalogue.Duration(age))
	if !next.IsZero() {
		line += " · " + catalogue.F("looked at again in %s", catalogue.Duration(time.Until(next).Round(time.Second)))
	}
	c.status.SetText(line)
	if rec.Ended.IsZero() {
		c.note.SetText(catalogue.F("Sent through the Batch API, to be done within 24 hours at its lower price (%s). It goes on if you close Easel: the pictures land in the gallery when they come.", rec.ID))
		if rec.Endpoint == api.RenderEndpoint {
			c.note.SetText(catalogue.F("Rendering in the Responses API's background mode (%s), at the live price. It goes on if you close Easel: the picture lands in the gallery when it is done.", rec.ID))
		}
		return
	}
	c.note.SetText(c.endWords(rec))
	c.cancel.Hide()
	c.remove.Show()
}

// endWords says what an ended batch brought and what it left.
func (c *card) endWords(rec library.BatchRecord) string {
	if c.render && rec.Completed == 0 {
		return catalogue.F("The render ended %s, without a picture.", batchlane.StatusWords(rec.Status))
	}
	if rec.Failed == 0 && rec.Completed == rec.Total {
		return catalogue.N("All %d pictures are in the gallery.", rec.Completed, rec.Completed)
	}
	return catalogue.F("%d in the gallery; %d not made (nothing was charged for what the batch did not run): send them again below, or from the list of requests cut off at the next start.", rec.Completed, rec.Total-rec.Completed)
}

// sayFailed says why the batch cannot be followed now.
func (c *card) sayFailed(why string) {
	c.note.SetText(catalogue.F("Easel cannot follow this batch now: %s. It goes on at the service; the next start tries again.", why))
	c.remove.Show()
}

// sentenceCase is s with a capital first letter.
func sentenceCase(s string) string {
	r := []rune(s)
	if len(r) > 0 && r[0] >= 'a' && r[0] <= 'z' {
		r[0] -= 'a' - 'A'
	}
	return string(r)
}
