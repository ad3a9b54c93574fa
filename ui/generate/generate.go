// Package generate is the Text to image tab: the prompt and every option
// on the left, the running and finished jobs on the right.
package generate

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/ui/imageform"
	"easel/ui/jobview"
	"easel/ui/kit"
	"easel/ui/room"
)

// Room is the Text to image tab.
type Room struct {
	host     room.Host
	prompt   *widget.Entry
	options  *imageform.Form
	generate *widget.Button
	status   *widget.Label
	jobs     *jobview.List
}

// New makes the tab; its widgets are made by Build.
func New(h room.Host) *Room { return &Room{host: h} }

// Build implements room.Room.
func (t *Room) Build() fyne.CanvasObject {
	s := t.host.Session()
	t.prompt = kit.PromptEntry("Describe the image — Ctrl+Enter generates")
	t.options = imageform.New(t.host.Models().New(api.EndpointImages, "Image model, e.g. gpt-image-1", "gpt-image-1"))
	t.options.ApplyDefaults(s.Current().ImageModel, s.Current().Image)
	t.generate = &widget.Button{Text: "Generate", Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: t.PrimaryAction}
	t.status = kit.HintLabel(room.ServiceText(t.host))
	t.setReady()

	form := container.NewVBox(kit.Heading("Prompt"), t.prompt, t.options.Form)
	// The form scrolls; Generate stays in sight below it at any window
	// size.
	action := container.NewPadded(container.NewBorder(nil, nil, nil, t.generate, t.status))
	left := container.NewBorder(nil, action, nil, nil, container.NewVScroll(container.NewPadded(form)))

	t.jobs = jobview.NewList("Jobs appear here with a live preview, their elapsed time and a Cancel button. Finished images go straight to the Gallery.", t.cancel)
	right := container.NewBorder(kit.Heading("Jobs"), nil, nil, nil, container.NewVScroll(t.jobs.Box))

	split := container.NewHSplit(left, right)
	split.Offset = 0.42
	return split
}

func (t *Room) cancel(id string) {
	if r := t.host.Runner(); r != nil {
		r.Cancel(id)
	}
}

func (t *Room) setReady() {
	if room.Ready(t.host) {
		t.generate.Enable()
	} else {
		t.generate.Disable()
	}
}

// FocusTarget implements room.Room: the prompt.
func (t *Room) FocusTarget() fyne.Focusable { return t.prompt }

// ServiceChanged implements room.Room.
func (t *Room) ServiceChanged() {
	t.setReady()
	t.status.SetText(room.ReadyText(t.host))
}

// Connected implements room.Room: the profile's default model and
// options go into the form.
func (t *Room) Connected() {
	p := t.host.Session().Current()
	t.options.ApplyDefaults(p.ImageModel, p.Image)
}

// PrimaryAction checks the request and submits it as a job; the form
// stays as it is, so the next variation is one edit away.
func (t *Room) PrimaryAction() {
	if !room.Ready(t.host) {
		t.status.SetText(room.ServiceText(t.host))
		return
	}
	req := api.GenerateRequest{Prompt: t.prompt.Text, ImageOptions: t.options.Options()}
	if err := req.Check(t.host.Session().Client().Limits()); err != nil {
		t.status.SetText(kit.ErrorText(err))
		return
	}
	t.status.SetText("")
	room.SubmitImageJob(t.host, t.options.Model, &req.ImageOptions, jobs.Request{Generate: &req}, t.status.SetText)
}

// Reuse fills the form with a prompt and settings (the Gallery's Reuse
// settings), ready for a variation.
func (t *Room) Reuse(prompt string, opts api.ImageOptions) {
	t.prompt.SetText(prompt)
	t.options.SetOptions(opts)
}

// ShowJob shows a job event on the job's card; img is its preview.
func (t *Room) ShowJob(e jobs.Event, img image.Image) { t.jobs.Show(e, img) }

// Jobs is the tab's job list.
func (t *Room) Jobs() *jobview.List { return t.jobs }

// Prompt is the prompt field.
func (t *Room) Prompt() *widget.Entry { return t.prompt }

// Options is the options form.
func (t *Room) Options() *imageform.Form { return t.options }

// Button is Generate.
func (t *Room) Button() *widget.Button { return t.generate }

// StatusText is the line beside Generate: why nothing can be sent, or
// what a check refused.
func (t *Room) StatusText() string { return t.status.Text }
