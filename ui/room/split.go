package room

import (
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/jobs"
	"easel/internal/spend"
	"easel/ui/kit"
)

// splitQuestion asks whether to send n requests of one image (yes) or
// one request as it is (other); Esc or Cancel sends nothing.
func splitQuestion(h BudgetHost, req jobs.Request, notes []string) question {
	return func(answer func(int)) {
		n := req.Options().N
		var d dialog.Dialog
		why := ""
		for _, note := range notes {
			why += note + "\n"
		}
		// The answer before the hide: hiding closes the dialog, whose
		// close is a no when nothing else answered.
		reply := func(a int) func() { return func() { answer(a); d.Hide() } }
		split := &widget.Button{Text: catalogue.F("Send %d requests of 1 image", n), Importance: widget.HighImportance, OnTapped: reply(answerYes)}
		once := &widget.Button{Text: catalogue.T("Send one request"), OnTapped: reply(answerOther)}
		cancel := &widget.Button{Text: catalogue.T("Cancel"), OnTapped: reply(answerNo)}
		est := spend.Image(req.Prices, req.Generate, req.Edit)
		cost := ""
		if est.Priced {
			cost = catalogue.F(" (%s in all, as estimated for one request of %d)", est.Amount(), n)
		}
		body := container.NewVBox(kit.HintLabel(why+catalogue.F("Easel can send %d requests of one image each instead, at the same time; each is charged as one image%s.", n, cost)),
			container.NewHBox(kit.Spacer(), cancel, once, split))
		d = dialog.NewCustomWithoutButtons(catalogue.T("One image per request"), body, h.Window())
		d.SetOnClosed(func() { answer(answerNo) })
		d.Show()
		// Nothing focused: Enter and Esc reach the window's dialog keys,
		// which a focused button would swallow (it takes Space only).
		h.Window().Canvas().Unfocus()
	}
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
