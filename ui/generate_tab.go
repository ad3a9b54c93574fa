package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// generateTab is the Text to image tab: the prompt and every option on the
// left, the running and finished jobs on the right.
type generateTab struct {
	prompt   *widget.Entry
	options  *imageOptionsForm
	generate *widget.Button
	status   *widget.Label
	jobs     *fyne.Container
}

func (t *generateTab) buildUI() fyne.CanvasObject {
	t.prompt = newPromptEntry("Describe the image — Ctrl+Enter generates")
	t.options = newImageOptionsForm("gpt-image-1")
	t.generate = &widget.Button{Text: "Generate", Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: t.primaryAction}
	t.generate.Disable()
	t.status = hintLabel("Connect a service to generate.")

	form := container.NewVBox(
		widget.NewLabelWithStyle("Prompt", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.prompt,
		t.options.form,
		container.NewBorder(nil, nil, nil, t.generate, t.status),
	)
	left := container.NewVScroll(container.NewPadded(form))

	t.jobs = container.NewVBox(hintLabel("Jobs appear here with a live preview, their elapsed time and a Cancel button. Finished images go straight to the Gallery."))
	right := container.NewBorder(
		widget.NewLabelWithStyle("Jobs", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		nil, nil, nil, container.NewVScroll(t.jobs))

	split := container.NewHSplit(left, right)
	split.Offset = 0.42
	return split
}

func (t *generateTab) focusTarget() fyne.Focusable { return t.prompt }

func (t *generateTab) primaryAction() {}
