package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/jobs"
)

// generateTab is the Text to image tab: the prompt and every option on the
// left, the running and finished jobs on the right.
type generateTab struct {
	app      *App
	prompt   *widget.Entry
	options  *imageOptionsForm
	generate *widget.Button
	status   *widget.Label
	jobs     *jobList
}

func (t *generateTab) buildUI() fyne.CanvasObject {
	t.prompt = newPromptEntry("Describe the image — Ctrl+Enter generates")
	t.options = newImageOptionsForm(t.app.newModelPicker(api.EndpointImages, "Image model, e.g. gpt-image-1", "gpt-image-1"))
	t.options.applyDefaults(t.app.acct.current.ImageModel, t.app.acct.current.Image)
	t.generate = &widget.Button{Text: "Generate", Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: t.primaryAction}
	t.status = hintLabel("")
	if t.app.acct.client == nil || t.app.svc.runner == nil {
		t.generate.Disable()
	}
	t.status.SetText(t.app.serviceText())

	form := container.NewVBox(
		widget.NewLabelWithStyle("Prompt", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.prompt,
		t.options.form,
		container.NewBorder(nil, nil, nil, t.generate, t.status),
	)
	left := container.NewVScroll(container.NewPadded(form))

	t.jobs = newJobList(t.app, "Jobs appear here with a live preview, their elapsed time and a Cancel button. Finished images go straight to the Gallery.")
	right := container.NewBorder(
		widget.NewLabelWithStyle("Jobs", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		nil, nil, nil, container.NewVScroll(t.jobs.box))

	split := container.NewHSplit(left, right)
	split.Offset = 0.42
	return split
}

func (t *generateTab) focusTarget() fyne.Focusable { return t.prompt }

// primaryAction checks the request and submits it as a job; the form
// stays as it is, so the next variation is one edit away.
func (t *generateTab) primaryAction() {
	if t.app.acct.client == nil || t.app.svc.runner == nil {
		t.status.SetText(t.app.serviceText())
		return
	}
	req := api.GenerateRequest{Prompt: t.prompt.Text, ImageOptions: t.options.options()}
	if err := req.Check(t.app.acct.client.Limits()); err != nil {
		t.status.SetText(errorText(err))
		return
	}
	t.status.SetText("")
	t.app.submitImageJob(t.options.model, &req.ImageOptions, jobs.Request{Generate: &req}, t.status)
}
