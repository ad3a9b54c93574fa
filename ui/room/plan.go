package room

import (
	"context"
	"log/slog"
	"slices"
	"strings"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/ui/kit"
)

// A request goes out in one straight line: its plan is read once (off
// the UI goroutine: jobs.ReadPlan, which the command line reads too),
// then each question the plan raises is asked in turn — values the
// service refused before, one image per request, the budget — each a
// dialog on the UI goroutine that this goroutine waits on, and only when
// every answer says send are the requests submitted. The goroutine runs
// on the window's work scope: closing the window answers every question
// "don't send".

// The answers a question can have.
const (
	answerNo = iota // cancel, don't send, the window closed
	answerYes
	answerOther // the question's third way (send one request as it is)
)

// question shows a dialog on the UI goroutine whose buttons call answer
// once.
type question func(answer func(int))

// ask shows q and waits for its answer; the window closing is a no.
func ask(ctx context.Context, h BudgetHost, q question) int {
	answered := make(chan int, 1)
	h.Work().Do(func() {
		q(func(a int) {
			select {
			case answered <- a:
			default:
			}
		})
	})
	select {
	case a := <-answered:
		return a
	case <-ctx.Done():
		return answerNo
	}
}

// sendPlanned reads req's plan and asks its questions, then submits what
// the answers make of it (req, or req as n requests of one) on the
// runner; a failure to submit goes to status. nearest, when set, is what
// the refused-values question's "Use …" does (the tab puts the nearest
// values in its form and sends again), and the question is asked only
// then.
func sendPlanned(ctx context.Context, h SendHost, p config.Profile, req jobs.Request, status func(string), nearest func([]honesty.Refusal)) {
	plan, err := jobs.ReadPlan(ctx, h.Library(), p, req)
	if err != nil {
		slog.Warn("plan: what is known before sending could not be read in full", "err", err)
	}
	if refused := plan.Advice.Refused; len(refused) > 0 && nearest != nil {
		switch ask(ctx, h, refusedQuestion(h, req.Options().Model, refused)) {
		case answerNo:
			return
		case answerOther:
			h.Work().Do(func() { nearest(refused) })
			return
		}
	}
	reqs := []jobs.Request{req}
	advice := plan.Advice
	if advice.Split && req.Options().N > 1 {
		switch ask(ctx, h, splitQuestion(h, req, advice.Notes)) {
		case answerNo:
			return
		case answerYes:
			reqs = SplitRequest(req)
			// Each request of one makes one image: the offer is spent.
			advice.Split, advice.Notes = false, slices.DeleteFunc(slices.Clone(advice.Notes), func(n string) bool { return n == advice.SplitNote })
		}
	}
	if plan.Verdict.Over && ask(ctx, h, budgetQuestion(h, plan.Verdict, plan.Estimate, len(reqs))) != answerYes {
		return
	}
	for i := range reqs {
		reqs[i].Advice = &advice
	}
	h.Work().Do(func() {
		for _, r := range reqs {
			if _, err := h.Runner().Submit(r); err != nil {
				status(err.Error())
				return
			}
		}
	})
}

// refusedQuestion says what the service refused before for model and
// offers the nearest value it takes (other: put in the form and sent);
// Send anyway (yes) sends the request as it is, Cancel nothing.
func refusedQuestion(h BudgetHost, model string, refused []honesty.Refusal) question {
	return func(answer func(int)) {
		var d dialog.Dialog
		reply := func(a int) func() { return func() { answer(a); d.Hide() } }
		why := make([]string, len(refused))
		for i, r := range refused {
			why[i] = r.Sentence(model)
		}
		buttons := container.NewHBox(kit.Spacer(),
			&widget.Button{Text: catalogue.T("Cancel"), OnTapped: reply(answerNo)},
			&widget.Button{Text: catalogue.T("Send anyway"), OnTapped: reply(answerYes)})
		if nearest := refused[0].Nearest; nearest != "" {
			buttons.Add(&widget.Button{Text: catalogue.F("Use %q and send", nearest), Importance: widget.HighImportance, OnTapped: reply(answerOther)})
			// Nothing focused: Enter (the highlighted Use) and Esc
			// (Cancel) reach the window's dialog keys, which a focused
			// button would swallow (it takes Space only).
			defer h.Window().Canvas().Unfocus()
		}
		body := container.NewVBox(kit.HintLabel(strings.Join(why, "\n")), buttons)
		d = dialog.NewCustomWithoutButtons(catalogue.T("The service refused this before"), body, h.Window())
		d.SetOnClosed(func() { answer(answerNo) })
		d.Show()
	}
}
