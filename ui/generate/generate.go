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
	"easel/internal/catalogue"
	"easel/internal/jobs"
	"easel/ui/batches"
	"easel/ui/board"
	"easel/ui/jobview"
	"easel/ui/kit"
	"easel/ui/room"
	"easel/ui/widgets/promptentry"
)

// Host is what Text to image asks of the window: what any tab that sends
// images does (room.SendHost), and the gallery's notice that a board it
// opened (Compare models, Batch) put discarded pictures back.
type Host interface {
	room.SendHost
	GalleryChanged()
}

// Room is the Text to image tab.
type Room struct {
	room.Sender
	host   Host
	prompt *promptentry.Entry
	jobs   *jobview.List
	// board and batch are the comparison board and the batch last
	// opened from this tab; their jobs' events come here and go on to
	// them (each ignores the other's).
	board, batch *board.Board
	// batches are the window's batches of the Batch API, shown above the
	// tab's jobs; nil without a gallery. background sends the next
	// picture in the Responses API's background mode, as a batch of one.
	batches    *batches.Panel
	background *widget.Check
}

// New makes the tab; its widgets are made by Build.
func New(h Host, b *batches.Panel) *Room { return &Room{host: h, batches: b} }

// Build implements room.Room.
func (t *Room) Build() fyne.CanvasObject {
	t.prompt = promptentry.New(catalogue.T("Describe the image — Ctrl+Enter generates"))
	t.Sender = room.NewSender(t.host, catalogue.T("Generate"), theme.MediaPlayIcon(), t.PrimaryAction)
	t.OnJob(t.ShowJob)
	t.SetPrompt(&t.prompt.Entry)
	compare := &widget.Button{Text: catalogue.T("Compare…"), Icon: theme.ViewRestoreIcon(), Importance: widget.LowImportance, OnTapped: t.OpenBoard}
	batch := &widget.Button{Text: catalogue.T("Batch…"), Icon: theme.GridIcon(), Importance: widget.LowImportance, OnTapped: t.OpenBatch}
	// A long render (4K, extra high quality) can go in the Responses
	// API's background mode: the service keeps it without a connection.
	t.background = widget.NewCheck(catalogue.T("In the background (survives closing Easel)"), nil)
	// Below the options: beside Compare and Batch it widened the form
	// past a 1024-pixel window's half, and above them it moved every
	// option down.
	form := container.NewVBox(kit.Heading(catalogue.T("Prompt")), t.prompt, container.NewHBox(compare, batch), t.Options().Form)
	if t.batches != nil {
		form.Add(t.background)
	}
	// The form scrolls; Generate stays in sight below it at any window
	// size.
	left := container.NewBorder(nil, t.ActionRow(), nil, nil, container.NewVScroll(container.NewPadded(form)))

	t.jobs = jobview.NewList(catalogue.T("Jobs appear here with a live preview, their elapsed time and a Cancel button. Finished images go straight to the Gallery."), t.JobActions())
	list := fyne.CanvasObject(t.jobs.Box)
	if t.batches != nil {
		list = container.NewVBox(t.batches.Box, t.jobs.Box)
	}
	right := container.NewBorder(kit.Heading(catalogue.T("Jobs")), nil, nil, nil, container.NewVScroll(list))

	split := container.NewHSplit(left, right)
	split.Offset = 0.42
	return split
}

// FocusTarget implements room.Room: the prompt.
func (t *Room) FocusTarget() fyne.Focusable { return t.prompt }

// PrimaryAction checks the request and submits it as a job; the form
// stays as it is, so the next variation is one edit away.
func (t *Room) PrimaryAction() {
	req := api.GenerateRequest{Prompt: t.prompt.Text, ImageOptions: t.Options().Options()}
	if t.background != nil && t.background.Checked && t.batches != nil {
		t.sendInBackground(req)
		return
	}
	t.Send(req.Check, &req.ImageOptions, jobs.Request{Generate: &req})
}

// sendInBackground sends req in the Responses API's background mode: its
// card joins the batches above the jobs, and it survives the window.
func (t *Room) sendInBackground(req api.GenerateRequest) {
	h := t.host
	if !room.Ready(h) {
		t.SetStatus(room.ServiceText(h))
		return
	}
	client, p := h.Service().Client(), h.Service().Current()
	req.N = 1 // the image tool makes one picture a response
	if err := req.Check(client.Limits()); err != nil {
		t.SetStatus(kit.ErrorText(err))
		return
	}
	job := jobs.Request{Profile: p.ID, Group: p.UsingGroup(), Prices: p.Prices, Generate: &req}
	room.GuardBudget(h, p, []jobs.Request{job}, func() {
		t.SetStatus(catalogue.T("Sending it to render in the background…"))
		t.batches.Render(client, p, job, req.Prompt, func(err error) {
			if err != nil {
				t.SetStatus(kit.ErrorText(err))
				return
			}
			t.SetStatus(catalogue.T("Rendering in the background: its card is above the jobs, and it goes on if you close Easel."))
		})
	})
}

// Reuse fills the form with a prompt and settings (the Gallery's Reuse
// settings), ready for a variation.
func (t *Room) Reuse(prompt string, opts api.ImageOptions) {
	t.prompt.SetText(prompt)
	t.Options().SetOptions(opts)
}

// ShowJob shows a job event on the job's card; img is its preview,
// results a finished job's images.
func (t *Room) ShowJob(e jobs.Event, img image.Image, results []jobview.Result) {
	t.jobs.Show(e, img, results)
	if e.State.Final() {
		t.Advise() // what the answer showed may change what the form says
	}
}

// Jobs is the tab's job list.
func (t *Room) Jobs() *jobview.List { return t.jobs }

// Prompt is the prompt field.
func (t *Room) Prompt() *promptentry.Entry { return t.prompt }

// OpenBoard opens the comparison board on the tab's prompt and options.
func (t *Room) OpenBoard() {
	t.board = board.Open(t.host, t.prompt.Text, t.Options().Options(), t.Options().Model.Listed())
}

// Board is the comparison board last opened, nil before one.
func (t *Room) Board() *board.Board { return t.board }

// OpenBatch opens a batch from a template on the tab's prompt and
// options.
func (t *Room) OpenBatch() {
	t.batch = board.OpenBatch(t.host, t.batches, t.prompt.Text, t.Options().Options())
}

// Batch is the batch last opened, nil before one.
func (t *Room) Batch() *board.Board { return t.batch }
