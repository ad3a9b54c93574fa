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
type jobFeed struct {
	s *services
	// gallery reloads the gallery once it is built; spend reads the
	// spend again (and, when done, the balance), once the status line is
	// made (App.buildUI); state keeps the drafts and layout.
	gallery interface{ GalleryChanged() }
	spend   interface{ refreshSpend(askService bool) }
	state   interface{ saveState() }
	// question is the question asked before quitting while jobs run,
	// while it is shown: it follows the jobs (jobsEnded).
	question dialog.Dialog
}

// onJobEvent runs on a job's goroutine: the event is shown on the UI
// goroutine.
func (a *jobFeed) onJobEvent(e jobs.Event) {
	a.s.bridge.Do(func() { a.showJobEvent(e) })
}

// showJobEvent does what is window-wide with a job's event: the card is
// the asker's (Request.Listener).
func (a *jobFeed) showJobEvent(e jobs.Event) {
	if e.State == jobs.Queued {
		// The prompt being sent is the draft a kill must not lose: it
		// was kept only as the window closed, and after a kill -9 Text
		// to image came back with an older prompt than the one it was
		// generating (#57).
		a.state.saveState()
	}
	if e.State == jobs.Done || len(e.ItemIDs) > 0 {
		a.gallery.GalleryChanged()
	}
	if e.Charged != nil && a.spend != nil {
		a.spend.refreshSpend(e.State == jobs.Done)
	}
	if e.State.Final() {
		a.jobsEnded()
	}
	if (e.State == jobs.Done || e.State == jobs.Failed) && !a.s.focused && e.Job.Request.Journalled == "" {
		a.notify(e) // a batch's or a render's pictures are told of once, by its card
	}
}

// notify tells, over the desktop's notifications, that a job ended while
// the window was in the background. Notifications fail quietly.
func (a *jobFeed) notify(e jobs.Event) {
	title, body := catalogue.T("Image ready"), kit.Shorten(jobview.Prompt(e), 80)
	if len(e.Unsaved) > 0 {
		title, body = catalogue.T("Images not saved"), library.Cause(e.Unsaved[0].Err)
	}
	if e.State == jobs.Failed {
		title = catalogue.F("Image failed: %s", e.Err.Kind)
		body = e.Err.Hint
	}
	a.s.fyneApp.SendNotification(fyne.NewNotification(title, body))
}

// confirmClose asks before closing while jobs run: their images would be
// lost though they are paid for. Keeping them is the default.
func (a *jobFeed) confirmClose() {
	runner, win := a.s.runner, a.s.win
	if runner == nil || runner.Running() == 0 {
		a.s.armQuit()
		a.state.saveState()
		win.Close()
		return
	}
	n := runner.RunningImages()
	images := catalogue.N("If you quit now, %s images are lost, though the service may charge for them.", n, humanize.Comma(int64(n)))
	if runner.ImagesAtService() == 0 {
		// Queued, or an edit still uploading: nothing reached the model.
		images = catalogue.N("If you quit now, %s images are not made; nothing was charged, as no request has reached the service yet.", n, humanize.Comma(int64(n)))
	}
	d := dialog.NewConfirm(catalogue.T("Jobs are still running"),
		catalogue.N("%d jobs have not finished.", runner.Running(), runner.Running())+" "+images,
		func(quit bool) {
			a.question = nil
			if quit {
				a.s.armQuit()
				a.state.saveState()
				win.Close()
			}
		}, win)
	d.SetConfirmText(catalogue.N("Quit and lose %s images", n, humanize.Comma(int64(n))))
	d.SetDismissText(catalogue.T("Keep running"))
	d.SetConfirmImportance(widget.DangerImportance)
	a.question = d
	d.Show()
}

// jobsEnded follows the question confirmClose asked: once no job runs,
// nothing would be lost, so the window closes as the user asked it to;
// while some still run, the question is asked again with their numbers.
func (a *jobFeed) jobsEnded() {
	d := a.question
	if d == nil || a.s.runner == nil {
		return
	}
	a.question = nil
	d.Hide()
	a.confirmClose()
}
