package ui

import (
	"fmt"
	"image"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/jobs"
)

// previewSide is the longest side of a job card's preview, in pixels.
const previewSide = 192

// jobCard shows one job: its preview, prompt, state with elapsed time,
// and Cancel while it runs. A failure shows its hint in the card.
type jobCard struct {
	root    *fyne.Container
	preview *picture
	title   *widget.Label
	status  *widget.Label
	hint    *widget.Label
	cancel  *widget.Button
}

func newJobCard(prompt string, onCancel func()) *jobCard {
	c := &jobCard{}
	c.preview = newPicture(fyne.NewSize(previewSide/1.5, previewSide/1.5))
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	c.title = widget.NewLabelWithStyle(shorten(prompt, 80), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.title.Wrapping = fyne.TextWrapWord
	c.status = widget.NewLabel("Queued")
	c.hint = hintLabel("")
	c.hint.Hide()
	c.cancel = &widget.Button{Text: "Cancel", Icon: theme.CancelIcon(), OnTapped: onCancel}
	text := container.NewVBox(c.title, c.status, c.hint, container.NewHBox(c.cancel))
	c.root = container.NewBorder(nil, nil, container.NewStack(bg, c.preview), nil, text)
	return c
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// apply shows one job event; img is the decoded preview, if any.
func (c *jobCard) apply(e jobs.Event, img image.Image) {
	secs := e.Elapsed.Round(time.Second)
	switch e.State {
	case jobs.Queued:
		c.status.SetText("Queued")
	case jobs.Sending:
		c.status.SetText("Sending…")
	case jobs.Waiting:
		c.status.SetText(fmt.Sprintf("Waiting for the service · %s", secs))
	case jobs.Partial:
		c.status.SetText(fmt.Sprintf("Preview %d · %s", e.Preview.Index+1, secs))
	case jobs.Saving:
		c.status.SetText("Saving to the gallery…")
	case jobs.Done:
		c.status.SetText(fmt.Sprintf("Done in %s · %d image(s) in the gallery", secs, len(e.ItemIDs)))
	case jobs.Failed:
		c.status.SetText("Failed: " + e.Err.Kind.String())
		c.hint.SetText(e.Err.Hint)
		c.hint.Show()
	case jobs.Cancelled:
		c.status.SetText("Cancelled")
	}
	if img != nil {
		c.preview.SetImage(img)
	}
	if e.State.Final() {
		c.cancel.Hide()
	}
}

// jobList is a tab's list of job cards, newest on top.
type jobList struct {
	app   *App
	box   *fyne.Container
	cards map[string]*jobCard
}

func newJobList(app *App, emptyHint string) *jobList {
	return &jobList{app: app, box: container.NewVBox(hintLabel(emptyHint)), cards: map[string]*jobCard{}}
}

// show applies a job event, making the job's card on its first event.
func (l *jobList) show(e jobs.Event, img image.Image) {
	c := l.cards[e.Job.ID]
	if c == nil {
		id := e.Job.ID
		c = newJobCard(jobPrompt(e), func() { l.app.svc.runner.Cancel(id) })
		l.cards[id] = c
		if len(l.cards) == 1 {
			l.box.Objects = nil // the empty-state hint
		}
		l.box.Objects = append([]fyne.CanvasObject{c.root, widget.NewSeparator()}, l.box.Objects...)
		l.box.Refresh()
	}
	c.apply(e, img)
}
