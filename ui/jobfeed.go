package ui

import (
	"context"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/ui/jobview"
	"easel/ui/kit"
)

// jobFeed takes the runner's events for the window as a whole: the cards'
// notifications, the status bar's count, and the quit question that
// follows the jobs. Each event goes first to the room that sent it.
type jobFeed struct{ *App }

func (a jobFeed) onJobEvent(e jobs.Event) {
	var img image.Image
	var results []jobview.Result
	if e.State == jobs.Partial && e.Preview != nil {
		img, _ = library.MakeThumbnailSized(e.Preview.Data, jobview.PreviewSide)
	}
	if (e.State == jobs.Done || e.State == jobs.Interrupted) && a.lib != nil {
		results = a.results(e)
	}
	a.bridge.Do(func() { a.showJobEvent(e, img, results) })
}

// results are the images of a job that ended (done, or cut off after
// some had arrived), each with its thumbnail (n is at most 10, and the
// runner keeps no more than were asked for). An edit whose unmasked area
// was kept has two of each: the card names them, and compares the kept
// one with the first input.
func (a jobFeed) results(e jobs.Event) []jobview.Result {
	var results []jobview.Result
	var before image.Image
	for _, id := range e.ItemIDs {
		r := jobview.Result{Item: id}
		if it, err := a.lib.Get(context.Background(), id); err == nil {
			r.Path = a.lib.Path(it)
			if p, err := a.lib.Thumbnail(it); err == nil {
				r.Thumb, _ = imageio.DecodeFileFit(p, jobview.PreviewSide)
			}
			if it.Kind == "kept" && e.Job.Request.Edit != nil && len(e.Job.Request.Edit.Images) > 0 {
				// The user's picture as the runner cut it from the
				// pixels the composite used; decoded here only for an
				// interrupted job's, which has none.
				original := e.BeforeData
				if original == nil {
					original, _ = e.Job.Request.UserPicture()
				}
				switch {
				case before != nil:
				case e.Before != nil:
					before = imageio.Fit(e.Before, jobview.PreviewSide)
				default:
					before, _ = library.MakeThumbnailSized(original, jobview.PreviewSide)
				}
				r.Label, r.Before = catalogue.T("Unmasked kept"), before
				r.BeforeData = original
			} else if e.Job.Request.Keep != nil {
				r.Label = catalogue.T("As sent")
			}
		}
		results = append(results, r)
	}
	for i := range e.Unsaved {
		u := &e.Unsaved[i]
		thumb, _ := library.MakeThumbnailSized(u.Image.Data, jobview.PreviewSide)
		results = append(results, jobview.Result{Thumb: thumb, Unsaved: u})
	}
	return results
}

func (a jobFeed) showJobEvent(e jobs.Event, img image.Image, results []jobview.Result) {
	if e.Job.Request.Edit != nil {
		if a.built[TabEdit] {
			a.edit.ShowJob(e, img, results)
		}
	} else if a.built[TabGenerate] {
		a.generate.ShowJob(e, img, results)
	}
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
