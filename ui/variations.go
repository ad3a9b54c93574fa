package ui

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
	"easel/ui/batches"
	"easel/ui/dialogs"
	"easel/ui/kit"
	"easel/ui/room"
	"easel/ui/widgets/choice"
)

// variationCounts are the numbers of variations offered.
var variationCounts = []string{"1", "2", "3", "4", "6", "8"}

// variation is how far a variation strays from its original.
type variation int

const (
	samePrompt variation = iota // new pictures from the same request
	closeTo                     // an edit of the picture, high fidelity
	looseOn                     // an edit of the picture, low fidelity
)

func variationLabels() []string {
	return []string{
		catalogue.T("New pictures from the same prompt and settings"),
		catalogue.T("Close to this picture (an edit, high fidelity)"),
		catalogue.T("Loosely on this picture (an edit, low fidelity)"),
	}
}

// MoreLikeThis asks how many more of an item to make and how close to
// it, shows what that costs, and sends them as one request whose results
// are the item's children in the gallery's lineage.
func (g *galleryActions) MoreLikeThis(it library.Item) {
	g.build(TabEdit) // its model makes the edits
	g.build(TabGenerate)
	count := widget.NewSelect(variationCounts, nil)
	labels := variationLabels()
	how := choice.New(labels, nil)
	how.Required = true
	estimate := kit.HintLabel("")
	// The cheaper lane is offered once the service is known to take
	// batches; laneNote says why not where it does not.
	lane := choice.New(batches.Lanes(), nil)
	lane.Horizontal, lane.Required = true, true
	lane.SetSelected(batches.Lanes()[0])
	lane.Hide()
	laneNote := kit.HintLabel("")
	cheaper := func() bool { return lane.Visible() && batches.Cheaper(lane.Selected) }
	chosen := func() (variation, int) {
		n, _ := strconv.Atoi(count.Selected)
		for i, l := range labels {
			if l == how.Selected {
				return variation(i), max(n, 1)
			}
		}
		return samePrompt, max(n, 1)
	}
	update := func() {
		v, n := chosen()
		prices := g.s.session.Current().Prices
		var est pricing.Estimate
		if v == samePrompt {
			o := it.Params.ImageOptions
			o.N = n
			est = spend.Options(prices, o, it.Prompt, 0, "")
		} else {
			est = spend.Options(prices, g.editOptions(it, n), variationPrompt(it.Prompt), 1, fidelityOf(v))
		}
		estimate.SetText(est.String())
		if cheap, note := spend.InLane(est, spend.LaneBatch, est.Model); lane.Visible() && note != "" {
			estimate.SetText(catalogue.F("%s now, %s within 24 h through the Batch API", est, cheap))
		}
	}
	count.OnChanged = func(string) { update() }
	how.OnChanged = func(string) { update() }
	lane.OnChanged = func(string) { update() }
	if client := g.s.session.Client(); g.s.batches != nil && client != nil {
		g.s.batches.Offered(client, func(ok bool, why string) {
			if !ok {
				laneNote.SetText(catalogue.F("Only now: %s.", why))
				return
			}
			lane.Show()
			update()
		})
	}
	count.SetSelected("4")
	how.SetSelected(labels[0])
	if it.Prompt == "" { // nothing to repeat: only the picture itself
		how.SetSelected(labels[1])
		how.Disable()
	}
	form := widget.NewForm(widget.NewFormItem(catalogue.T("How many"), count), widget.NewFormItem(catalogue.T("How"), how),
		widget.NewFormItem(catalogue.T("When"), container.NewVBox(lane, laneNote)))
	d := dialog.NewCustomWithoutButtons(catalogue.T("More like this"), container.NewVBox(form, estimate), g.s.win)
	d.SetButtons([]fyne.CanvasObject{
		&widget.Button{Text: catalogue.T("Cancel"), OnTapped: d.Hide},
		&widget.Button{Text: catalogue.T("Make them"), Importance: widget.HighImportance, OnTapped: func() {
			d.Hide()
			v, n := chosen()
			g.sendVariations(it, v, n, cheaper())
		}},
	})
	d.Show()
}

// GalleryChanged implements generate.Host and board.Host: the gallery reads its items again.
func (a *host) GalleryChanged() {
	if g := a.tabs.builtGallery(); g != nil {
		g.Reload()
	}
}

// MoreLikeItem is a job card's "More like this…": the item is read off
// the UI goroutine, then asked about as the gallery's button does.
func (a *host) MoreLikeItem(id int64) { a.withItem(id, a.items.MoreLikeThis) }

// variationPrompt asks for a variation of a picture, with what it was
// made from when that is known.
func variationPrompt(original string) string {
	if original == "" {
		return catalogue.T("A variation of this image: keep its subject, composition and style; change the details.")
	}
	return catalogue.F("A variation of this image: keep its subject, composition and style; change the details. It was made from: %s", original)
}

func fidelityOf(v variation) string {
	if v == closeTo {
		return "high"
	}
	return "low"
}

// editOptions are an edit variation's options: the picture's shape and
// quality, n images, on the Edit tab's model.
func (g *galleryActions) editOptions(it library.Item, n int) api.ImageOptions {
	o := g.edit.Options().Options()
	return api.ImageOptions{Model: o.Model, Size: api.MatchSize(o.Model, it.Width, it.Height), Quality: it.Params.Quality, N: n}
}

// sendVariations sends the variations from the tab that makes them, or,
// the cheaper way, as one batch of n requests of one picture each.
func (g *galleryActions) sendVariations(it library.Item, v variation, n int, cheaper bool) {
	parents := []int64{it.ID}
	if v == samePrompt && cheaper {
		o := it.Params.ImageOptions
		o.N, o.Stream, o.PartialImages = 1, false, 0
		req := api.GenerateRequest{Prompt: it.Prompt, ImageOptions: o}
		g.sendBatch(it, n, jobs.Request{Generate: &req, Parents: parents})
		return
	}
	if v == samePrompt {
		o := it.Params.ImageOptions
		o.N = n
		g.show(TabGenerate)
		g.generate.Reuse(it.Prompt, o) // the form shows what is sent, model and all
		req := api.GenerateRequest{Prompt: it.Prompt, ImageOptions: g.generate.Options().Options()}
		g.generate.Send(req.Check, &req.ImageOptions, jobs.Request{Generate: &req, Parents: parents})
		return
	}
	path := g.s.lib.Path(it)
	req := api.EditRequest{Prompt: variationPrompt(it.Prompt), ImageOptions: g.editOptions(it, n), InputFidelity: fidelityOf(v)}
	g.s.work.Go(func(ctx context.Context) {
		data, err := os.ReadFile(path)
		var converted []string
		if err == nil {
			// Sent as an edit is: in sRGB (jobs.InSRGB).
			req.Images = []api.InputImage{{Name: dialogs.ExportName(it, it.Format), ContentType: "image/" + it.Format, Data: data}}
			converted, err = jobs.InSRGB(&req, nil)
		}
		g.s.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot read image %d: %w"), it.ID, err), g.s.win)
				return
			}
			if cheaper {
				one := req
				one.N = 1
				g.sendBatch(it, n, jobs.Request{Edit: &one, Parents: parents, Converted: converted})
				return
			}
			g.show(TabEdit)
			g.edit.Send(req.Check, &req.ImageOptions, jobs.Request{Edit: &req, Parents: parents, Converted: converted})
		})
	})
}

// sendBatch sends n copies of req as one batch of the Batch API; its
// card is above Text to image's jobs.
func (g *galleryActions) sendBatch(it library.Item, n int, req jobs.Request) {
	client, p := g.s.session.Client(), g.s.session.Current()
	reqs := make([]jobs.Request, n)
	for i := range reqs {
		reqs[i] = req
		reqs[i].Lane, reqs[i].Prices = spend.LaneBatch, p.Prices
	}
	label := catalogue.F("More like picture %d", it.ID)
	room.GuardBudget(g.host, p, reqs, func() {
		g.show(TabGenerate)
		g.s.batches.Send(client, p, reqs, label, func(err error) {
			if err != nil {
				dialog.ShowError(err, g.s.win)
			}
		})
	})
}
