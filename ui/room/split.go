package room

import (
	"context"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/spend"
	"easel/ui/kit"
)

// submitShaped submits req, first offering to split it when its service
// is known to make one image per request: n images then go as n requests
// of one, with the count shown, and the user chooses before anything is
// sent (each request is charged). The memory is read off the UI
// goroutine; submit runs on it.
func submitShaped(h BudgetHost, req jobs.Request, submit func(...jobs.Request)) {
	o := req.Options()
	lib := h.Library()
	if o.N <= 1 || lib == nil {
		submit(req)
		return
	}
	h.Work().Go(func(ctx context.Context) {
		known, err := lib.Memory().Known(ctx, req.ServiceKey())
		h.Work().Do(func() {
			advice := honesty.Advise(known, o, req.Edit != nil, req.Edit != nil && req.Edit.Mask != nil)
			if err != nil || !advice.Split {
				submit(req)
				return
			}
			offerSplit(h, req, advice.Notes, submit)
		})
	})
}

// offerSplit asks whether to send n requests of one image or one request
// as it is; Esc or Cancel sends nothing.
func offerSplit(h BudgetHost, req jobs.Request, notes []string, submit func(...jobs.Request)) {
	n := req.Options().N
	var d dialog.Dialog
	why := ""
	for _, note := range notes {
		why += note + "\n"
	}
	split := &widget.Button{Text: catalogue.F("Send %d requests of 1 image", n), Importance: widget.HighImportance, OnTapped: func() {
		d.Hide()
		submit(SplitRequest(req)...)
	}}
	once := &widget.Button{Text: catalogue.T("Send one request"), OnTapped: func() { d.Hide(); submit(req) }}
	cancel := &widget.Button{Text: catalogue.T("Cancel"), OnTapped: func() { d.Hide() }}
	est := spend.Image(req.Prices, req.Generate, req.Edit)
	cost := ""
	if est.Priced {
		cost = catalogue.F(" (%s in all, as estimated for one request of %d)", est.Amount(), n)
	}
	body := container.NewVBox(kit.HintLabel(why+catalogue.F("Easel can send %d requests of one image each instead, at the same time; each is charged as one image%s.", n, cost)),
		container.NewHBox(kit.Spacer(), cancel, once, split))
	d = dialog.NewCustomWithoutButtons(catalogue.T("One image per request"), body, h.Window())
	d.Show()
	// Nothing focused: Enter and Esc reach the window's dialog keys,
	// which a focused button would swallow (it takes Space only).
	h.Window().Canvas().Unfocus()
}

// SplitRequest is req as n requests of one image each, in order, each
// its own copy (the same prompt, options, inputs, lineage and keep).
func SplitRequest(req jobs.Request) []jobs.Request {
	n := req.Options().N
	out := make([]jobs.Request, 0, n)
	for range n {
		out = append(out, req.WithOptions(func(o *api.ImageOptions) { o.N = 1 }))
	}
	return out
}
