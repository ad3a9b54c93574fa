package ui

import (
	"context"
	"errors"
	"fmt"
	"fyne.io/fyne/v2"
	"image"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/library"
)

// errorText is one line for an error next to the control that caused it.
func errorText(err error) string {
	var e *api.Error
	if errors.As(err, &e) {
		if e.Hint != "" {
			return e.Message + " — " + e.Hint
		}
		return e.Message
	}
	return err.Error()
}

// submitImageJob sends a checked Generate or Edit request as a job on the
// connected profile, once the model name is confirmed; opts is the
// request's options, whose model the confirmation may swap for a listed
// one. A refusal is shown in status.
func (a *App) submitImageJob(model *modelPicker, opts *api.ImageOptions, req jobs.Request, status *widget.Label) {
	a.confirmModel(model, func() {
		opts.Model = model.text()
		req.Profile, req.Service = a.acct.current.ID, a.acct.client
		if _, err := a.svc.runner.Submit(req); err != nil {
			status.SetText(err.Error())
		}
	})
}

// onJobEvent runs on a job's goroutine: it decodes a preview there, then
// hops to the UI goroutine to show the event.
func (a *App) onJobEvent(e jobs.Event) {
	var img image.Image
	if e.State == jobs.Partial && e.Preview != nil {
		img, _ = library.MakeThumbnailSized(e.Preview.Data, previewSide)
	}
	if e.State == jobs.Done && len(e.ItemIDs) > 0 && a.svc.lib != nil {
		if it, err := a.svc.lib.Get(context.Background(), e.ItemIDs[0]); err == nil {
			if p, err := a.svc.lib.Thumbnail(it); err == nil {
				img = loadImageFile(p)
			}
		}
	}
	a.bridge.Do(func() { a.showJobEvent(e, img) })
}

func (a *App) showJobEvent(e jobs.Event, img image.Image) {
	list := a.generate.jobs
	if e.Job.Request.Edit != nil {
		list = a.edit.jobs
	}
	if list != nil {
		list.show(e, img)
	}
	if e.State == jobs.Done && a.gallery.grid != nil {
		a.gallery.reload()
	}
	if (e.State == jobs.Done || e.State == jobs.Failed) && !a.focused {
		a.notify(e)
	}
}

// notify tells, over the desktop's notifications, that a job ended while
// the window was in the background. Notifications fail quietly.
func (a *App) notify(e jobs.Event) {
	title, body := "Image ready", shorten(jobPrompt(e), 80)
	if e.State == jobs.Failed {
		title = "Image failed: " + e.Err.Kind.String()
		body = e.Err.Hint
	}
	a.fyneApp.SendNotification(fyne.NewNotification(title, body))
}

func jobPrompt(e jobs.Event) string {
	if g := e.Job.Request.Generate; g != nil {
		return g.Prompt
	}
	if ed := e.Job.Request.Edit; ed != nil {
		return ed.Prompt
	}
	return ""
}

// confirmClose asks before closing while jobs run: their images would be
// lost though they are paid for.
func (a *App) confirmClose() {
	if a.svc.runner == nil || a.svc.runner.Running() == 0 {
		a.saveState()
		a.win.Close()
		return
	}
	n := a.svc.runner.Running()
	dialog.ShowConfirm("Jobs are still running",
		fmt.Sprintf("%d job(s) have not finished. If you quit now, their images are lost, though the service may charge for them. Quit anyway?", n),
		func(quit bool) {
			if quit {
				a.saveState()
				a.win.Close()
			}
		}, a.win)
}
