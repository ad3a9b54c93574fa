package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"easel/internal/catalogue"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/ui/jobview"
	"easel/ui/kit"
)

// jobFeed takes the runner's events for the window as a whole: the
// gallery's reload, the spend line, the notifications, and the quit
// question that follows the jobs. The card of a job is shown by whoever
// sent it (Text to image, Edit, a board), which hears the job's events
// first (jobs.Request.Listener).
type jobFeed struct{ *App }

func (a jobFeed) onJobEvent(e jobs.Event) {
	a.bridge.Do(func() { a.showJobEvent(e) })
}

// showJobEvent does what is window-wide with a job's event: the card is
// the asker's (Request.Listener).
func (a jobFeed) showJobEvent(e jobs.Event) {
	if (e.State == jobs.Done || len(e.ItemIDs) > 0) && a.built[TabGallery] {
		a.gallery.Reload()
	}
	if e.Charged != nil {
		statusActions{a.App}.refreshSpend(e.State == jobs.Done)
	}
	if e.State.Final() {
		a.jobsEnded()
	}
	if (e.State == jobs.Done || e.State == jobs.Failed) && !a.focused {
		a.notify(e)
	}
}

func (a jobFeed) notify(e jobs.Event) {
	title, body := catalogue.T("Image ready"), kit.Shorten(jobview.Prompt(e), 80)
	if len(e.Unsaved) > 0 {
		title, body = catalogue.T("Images not saved"), library.Cause(e.Unsaved[0].Err)
	}
	if e.State == jobs.Failed {
		title = catalogue.F("Image failed: %s", e.Err.Kind)
		body = e.Err.Hint
	}
	a.fyneApp.SendNotification(fyne.NewNotification(title, body))
}

func (a jobFeed) confirmClose() {
	if a.runner == nil || a.runner.Running() == 0 {
		a.saveState()
		a.win.Close()
		return
	}
	n := a.runner.RunningImages()
	images := catalogue.N("If you quit now, %s images are lost, though the service may charge for them.", n, humanize.Comma(int64(n)))
	d := dialog.NewConfirm(catalogue.T("Jobs are still running"),
		catalogue.N("%d jobs have not finished.", a.runner.Running(), a.runner.Running())+" "+images,
		func(quit bool) {
			a.quitQuestion = nil
			if quit {
				a.saveState()
				a.win.Close()
			}
		}, a.win)
	d.SetConfirmText(catalogue.N("Quit and lose %s images", n, humanize.Comma(int64(n))))
	d.SetDismissText(catalogue.T("Keep running"))
	d.SetConfirmImportance(widget.DangerImportance)
	a.quitQuestion = d
	d.Show()
}

func (a jobFeed) jobsEnded() {
	d := a.quitQuestion
	if d == nil || a.runner == nil {
		return
	}
	a.quitQuestion = nil
	d.Hide()
	a.confirmClose()
}
