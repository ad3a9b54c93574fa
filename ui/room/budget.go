package room

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/spend"
	"easel/internal/work"
	"easel/ui/kit"
)

// GuardBudget runs submit when reqs, sent together, stay within p's
// daily and monthly budget (or p has none); when they would pass it, it
// asks first with the numbers, and nothing is sent unless the user says
// so. A batch is judged whole, before any of it is sent, by the plan a
// single request is judged by (jobs.ReadPlan: the prices its key pays),
// read off the UI goroutine; submit runs on it.
func GuardBudget(h BudgetHost, p config.Profile, reqs []jobs.Request, submit func()) {
	if len(reqs) == 0 || h.Library() == nil {
		submit()
		return
	}
	h.Work().Go(func(ctx context.Context) {
		plan, _ := jobs.ReadPlan(ctx, h.Library(), p, reqs...)
		if plan.Verdict.Over && ask(ctx, h, budgetQuestion(h, plan.Verdict, plan.Estimate, len(reqs))) != answerYes {
			return
		}
		h.Work().Do(submit)
	})
}

// BudgetHost is what asking about the budget needs of the window: the
// ledger (in the library), the UI goroutine, and the window to ask in.
type BudgetHost interface {
	Library() *library.Library
	// Work starts tasks off the UI goroutine on the window's context,
	// which ends when the window closes.
	Work() work.Starter
	Window() fyne.Window
}

// GuardEstimate is GuardBudget for what is estimated at est over
// requests requests (a chat message: one, at the top of its range): the
// ledger read and the question asked in one goroutine, as a tab's send
// asks its plan's (sendPlanned).
func GuardEstimate(h BudgetHost, p config.Profile, est pricing.Estimate, requests int, submit func()) {
	lib := h.Library()
	if lib == nil {
		submit()
		return
	}
	h.Work().Go(func(ctx context.Context) {
		v, err := spend.Ledger{Books: lib.Ledger()}.Check(ctx, p, est, time.Now())
		if err == nil && v.Over && ask(ctx, h, budgetQuestion(h, v, est, requests)) != answerYes {
			return
		}
		h.Work().Do(submit)
	})
}

// budgetQuestion asks whether to send what would pass the budget; the
// safe answer, not sending, is the default.
func budgetQuestion(h BudgetHost, v spend.Verdict, est pricing.Estimate, requests int) question {
	return func(answer func(int)) { askOverBudget(h, v, est, requests, answer) }
}

func askOverBudget(h BudgetHost, v spend.Verdict, est pricing.Estimate, requests int, answer func(int)) {
	what := catalogue.F("This request is estimated at %s.", est.Amount())
	if requests > 1 {
		what = catalogue.F("These %d requests are estimated at %s together.", requests, est.Amount())
	}
	where := catalogue.T("The budget is set in Settings ▸ Prices and budget.")
	if v.Period == spend.PeriodKey {
		where = catalogue.T("Top the key up on the gateway's console, or send with another key of the profile.")
	}
	body := widget.NewLabel(v.String() + "\n" + what + "\n" + where)
	body.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	keep := &widget.Button{Text: catalogue.T("Don't send"), Icon: theme.CancelIcon(), Importance: widget.HighImportance, OnTapped: func() {
		answer(answerNo)
		d.Hide()
	}}
	send := &widget.Button{Text: catalogue.T("Send anyway"), Icon: theme.MailSendIcon(), Importance: widget.WarningImportance, OnTapped: func() {
		answer(answerYes) // before the hide, whose close is a no
		d.Hide()
	}}
	d = dialog.NewCustomWithoutButtons(catalogue.T("Over the budget"), container.NewVBox(body, container.NewHBox(kit.Spacer(), send, keep)), h.Window())
	d.SetOnClosed(func() { answer(answerNo) })
	d.Resize(fyne.NewSize(480, 0))
	d.Show()
	// Nothing focused: Enter and Esc reach the window's dialog keys and
	// both answer Don't send; a focused button swallowed them (it takes
	// Space only; issue 40, item 9).
	h.Window().Canvas().Unfocus()
}
