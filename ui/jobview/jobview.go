// Package jobview shows jobs as cards: a preview, the prompt, the state
// with its elapsed time, Cancel while a job runs, and what went wrong when
// it failed. Text to image and Edit each keep a List of them. Finished
// cards can be cleared, and a list keeps a bounded number of them, so a
// long session's previews do not pile up in memory.
package jobview

import (
	"image"
	"slices"
	"strings"
	"time"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/wording"
	"easel/ui/kit"
	"easel/ui/widgets/dragsource"
	"easel/ui/widgets/picture"
	"easel/ui/widgets/swatch"
)

// PreviewSide is the longest side of a job card's preview, in pixels.
const PreviewSide = 192

// KeepFinished is how many finished cards a list keeps; older finished
// cards are dropped as new jobs come (their images are in the gallery).
const KeepFinished = 50

// Result is one image a finished job received: its gallery item and its
// thumbnail, or, when it could not be saved, the image and why.
type Result struct {
	Item  int64
	Thumb image.Image
	// Label names the result when a job made two kinds ("As sent",
	// "Unmasked kept"), under its thumbnail.
	Label string
	// Before is, for a result with the unmasked area kept, the first
	// input it was made from: the card toggles between the two.
	Before image.Image
	// Unsaved is set for an image the gallery could not take.
	Unsaved *jobs.Unsaved
	// Path is the saved result's file, and BeforeData the first input's
	// bytes for one with the unmasked area kept: Compare… shows the two
	// large.
	Path       string
	BeforeData []byte
	// Turn says the result's place in its thread and what the service
	// changed outside the marks, for an edit that continued a picture;
	// "" otherwise.
	Turn string
}

// Actions are what a card's buttons do beyond Cancel and Clear.
type Actions struct {
	// Cancel cancels a running job by id.
	Cancel func(id string)
	// Open shows a result large (the Gallery's details).
	Open func(item int64)
	// Retry sends a failed job's request again.
	Retry func(jobs.Request)
	// Settings opens Settings, for a failure the profile must fix (the
	// key, the balance, access to the model).
	Settings func()
	// SaveAs offers to write an image the gallery could not take
	// elsewhere; n counts from 1 among the job's images.
	SaveAs func(img api.Image, prompt string, n int)
	// EditThis makes a result Edit's first image: paint, send, refine.
	EditThis func(item int64)
	// MoreLike asks for more pictures like a result, as its children.
	MoreLike func(item int64)
	// OtherGroup looks, after a "no channel for this model in your
	// group" answer, for another of the profile's groups whose key lists
	// model; found runs on the UI goroutine with the group's name and a
	// send that retries req with that group's key.
	OtherGroup func(model string, req jobs.Request, found func(group string, send func()))
	// Compare shows before (an image's bytes) and the result at after (a
	// file) large, side by side or with a divider.
	Compare func(before []byte, after string)
	// DragOut follows the drag of a result out of the window, to another
	// app.
	DragOut func(item int64, p dragsource.Phase)
}

// Card shows one job.
type Card struct {
	root    *fyne.Container
	preview *picture.Picture
	// results holds a finished job's images, each opening large.
	results *fyne.Container
	// slots show, while a job of several images runs, each image's
	// latest preview and then the image itself as it arrives; of is how
	// many were asked for.
	slots   []*picture.Picture
	slotRow *fyne.Container
	of      int
	// progress words how far a streaming job has come, for the time
	// given: the clock's ticks keep it rather than "Waiting".
	progress func(secs string) string
	// sent is the size of the job's upload once one was told, so the
	// wait after it says what went; sentAll is set once all of it went.
	sent    int64
	sentAll bool
	// unsaved lists the images that could not be saved, each with Save as….
	unsaved *fyne.Container
	title   *widget.Label
	// Status is the job's state in words, for tests and screen readers.
	Status *widget.Label
	hint   *widget.Label
	// Said is what the service did not do of what was asked ("asked for
	// 4 images, the service sent 1"), and before sending what it is
	// known not to do: the honesty of the answer, in sentences.
	Said *widget.Label
	// Cost says of a failed or cancelled request that may have been
	// billed what the spend counts it as.
	Cost *widget.Label
	// words are the service's own words for a failure, one click away
	// (wordsButton) behind Easel's advice.
	words       *widget.Label
	wordsButton *widget.Button
	// otherGroup sends the job again with the key of the profile's group
	// that lists the model.
	otherGroup *widget.Button
	cancel     *widget.Button
	clear      *widget.Button
	retry      *widget.Button
	settings   *widget.Button
	editThis   *widget.Button
	more       *widget.Button
	// compare toggles the preview between after (the result, with the
	// unmasked area kept) and before (the first input).
	compare       *widget.Button
	before, after image.Image
	// compareLarge opens the first input and the kept result large
	// (Actions.Compare), from beforeData and afterPath.
	compareLarge  *widget.Button
	beforeData    []byte
	afterPath     string
	showingBefore bool
	// lastResult is the result "Edit this result" takes: the last one
	// saved (for a masked edit, the one that kept the unmasked area).
	lastResult int64
	// tileEdits are each result's own Edit, in order.
	tileEdits []*iconbutton.Button
	final     bool
	// actions are what the card's buttons do.
	actions Actions
}

func newCard(e jobs.Event, a Actions, onClear func()) *Card {
	c := &Card{actions: a}
	c.preview = picture.New(fyne.NewSize(PreviewSide/1.5, PreviewSide/1.5))
	bg := swatch.New(theme.ColorNameInputBackground)
	c.title = widget.NewLabelWithStyle(kit.Shorten(Prompt(e), 80), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.title.Wrapping = fyne.TextWrapWord
	c.Status = widget.NewLabel(catalogue.T("Queued"))
	// "Done in 3s · 2 images in the gallery · $0.25" on one line asked
	// for more width than a 1024-pixel window has beside the painter.
	c.Status.Wrapping = fyne.TextWrapWord
	c.hint = kit.HintLabel("")
	c.hint.Hide()
	c.Said = kit.HintLabel("")
	c.Said.Hide()
	c.Cost = kit.HintLabel("")
	c.Cost.Hide()
	c.words = kit.HintLabel("")
	c.words.TextStyle = fyne.TextStyle{Monospace: true}
	c.words.Hide()
	c.wordsButton = &widget.Button{Text: catalogue.T("What the service said"), Icon: theme.InfoIcon(), Importance: widget.LowImportance, OnTapped: func() {
		if c.words.Visible() {
			c.words.Hide()
		} else {
			c.words.Show()
		}
	}}
	c.wordsButton.Hide()
	c.otherGroup = &widget.Button{Icon: theme.MailForwardIcon(), Importance: widget.HighImportance}
	c.otherGroup.Hide()
	id, req := e.Job.ID, e.Job.Request
	c.cancel = &widget.Button{Text: catalogue.T("Cancel"), Icon: theme.CancelIcon(), OnTapped: func() { a.Cancel(id) }}
	c.clear = &widget.Button{Text: catalogue.T("Clear"), Icon: theme.ContentClearIcon(), Importance: widget.LowImportance, OnTapped: onClear}
	c.retry = &widget.Button{Text: catalogue.T("Retry"), Icon: theme.ViewRefreshIcon(), OnTapped: func() {
		if a.Retry != nil {
			again := req
			again.Replaces = id // the new job takes this card's place
			a.Retry(again)
		}
	}}
	c.settings = &widget.Button{Text: catalogue.T("Open Settings"), Icon: theme.SettingsIcon(), OnTapped: func() {
		if a.Settings != nil {
			a.Settings()
		}
	}}
	c.editThis = &widget.Button{Text: catalogue.T("Edit this result"), Icon: theme.ColorPaletteIcon(), OnTapped: func() {
		if a.EditThis != nil && c.lastResult != 0 {
			a.EditThis(c.lastResult)
		}
	}}
	c.more = &widget.Button{Text: catalogue.T("More like this…"), Icon: theme.ContentAddIcon(), OnTapped: func() {
		if a.MoreLike != nil && c.lastResult != 0 {
			a.MoreLike(c.lastResult)
		}
	}}
	for _, b := range []*widget.Button{c.clear, c.retry, c.settings, c.editThis, c.more} {
		b.Hide()
	}
	c.results = container.NewGridWrap(fyne.NewSize(ResultSide, ResultSide))
	c.results.Hide()
	c.unsaved = container.NewVBox()
	c.unsaved.Hide()
	slotRow := container.NewGridWrap(fyne.NewSize(SlotSide, SlotSide))
	if c.of = req.Options().N; c.of > 1 {
		for range c.of {
			pic := picture.New(fyne.NewSize(SlotSide, SlotSide))
			c.slots = append(c.slots, pic)
			slotRow.Add(container.NewStack(swatch.New(theme.ColorNameInputBackground), pic))
		}
	}
	slotRow.Hidden = c.of < 2
	c.compare = &widget.Button{Text: catalogue.T("Before"), Icon: theme.ViewRestoreIcon(), OnTapped: c.toggleBefore}
	c.compare.Hide()
	c.compareLarge = &widget.Button{Text: catalogue.T("Compare…"), Icon: theme.ZoomInIcon(), OnTapped: func() {
		if a.Compare != nil && c.beforeData != nil {
			a.Compare(c.beforeData, c.afterPath)
		}
	}}
	c.compareLarge.Hide()
	text := container.NewVBox(c.title, c.Status, c.hint, c.Said, c.Cost, c.words,
		// Cancel sits alone at the row's end: when the job ends it goes
		// and nothing takes its place, so a late click lands on nothing
		// rather than on "Edit this result". The actions wrap onto more
		// rows rather than ask for more width than the card has: a row
		// of them once widened the whole window past the screen.
		container.NewBorder(nil, nil, nil, c.cancel, container.New(layout.NewRowWrapLayout(), c.otherGroup, c.retry, c.settings, c.editThis, c.more, c.compare, c.compareLarge, c.wordsButton, c.clear)),
		slotRow, c.results, c.unsaved)
	c.slotRow = slotRow
	c.root = container.NewBorder(nil, nil, container.NewStack(bg, c.preview), nil, text)
	return c
}

// ResultSide is the side of each result's thumbnail on a finished card
// of several images.
const ResultSide = 72

// SlotSide is the side of each image's slot on a running card of
// several images.
const SlotSide = 48

// showResults puts every result of a finished job on the card: saved
// ones as buttons that open them, unsaved ones with Save as…; the large
// preview shows the first.
func (c *Card) showResults(results []Result, a Actions, prompt string) {
	if len(results) == 0 {
		return
	}
	c.after, c.before, c.beforeData, c.afterPath = beforeOf(results)
	c.compareLarge.Hidden = c.beforeData == nil || a.Compare == nil
	c.showingBefore = false
	c.preview.SetImage(c.after)
	c.compare.Hidden = c.before == nil
	c.compare.SetText(catalogue.T("Before"))
	c.results.Objects, c.unsaved.Objects, c.tileEdits = nil, nil, nil
	c.say(append(c.notes(), turnsOf(results)...))
	for i, r := range results {
		pic := picture.New(fyne.NewSize(ResultSide, ResultSide))
		pic.SetImage(r.Thumb)
		var tile fyne.CanvasObject = pic
		if r.Label != "" {
			tag := widget.NewLabel(r.Label) // a label's colour follows the theme
			tag.SizeName = theme.SizeNameCaptionText
			shade := swatch.New(theme.ColorNameOverlayBackground)
			tile = container.NewStack(pic, container.NewVBox(layout.NewSpacer(), container.NewStack(shade, container.NewCenter(tag))))
		}
		if r.Unsaved != nil {
			img, n := r.Unsaved.Image, i+1
			save := &widget.Button{Text: catalogue.T("Save as…"), Icon: theme.DocumentSaveIcon(), Importance: widget.HighImportance, OnTapped: func() {
				if a.SaveAs != nil {
					a.SaveAs(img, prompt, n)
				}
			}}
			c.unsaved.Add(container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(ResultSide, ResultSide), pic), nil,
				container.NewVBox(widget.NewLabel(catalogue.F("Image %d is not in the gallery", n)), container.NewHBox(save))))
			continue
		}
		item := r.Item
		c.lastResult = item
		b := &widget.Button{Importance: widget.LowImportance, OnTapped: func() {
			if a.Open != nil {
				a.Open(item)
			}
		}}
		cell := container.NewStack(tile, b)
		if a.DragOut != nil {
			// Over the button: it takes drags, the button keeps the taps.
			cell.Add(dragsource.New(func(p dragsource.Phase) { a.DragOut(item, p) }))
		}
		if a.EditThis != nil {
			// Each result its own Edit, in its corner: of four, the one
			// the designer points at is the one edited.
			edit := iconbutton.Low(catalogue.T("Edit this result"), theme.ColorPaletteIcon(), func() { a.EditThis(item) })
			c.tileEdits = append(c.tileEdits, edit)
			cell.Add(container.NewBorder(container.NewHBox(layout.NewSpacer(), edit), nil, nil, nil))
		}
		c.results.Add(cell)
	}
	c.results.Hidden = len(c.results.Objects) == 0
	c.unsaved.Hidden = len(c.unsaved.Objects) == 0
	c.slotRow.Hide() // the results take the slots' place
	// One result: "Edit this result" beside the others' actions. Of
	// several, each has its own Edit in its corner, and no button on the
	// card says which one it would take.
	c.editThis.Hidden = c.lastResult == 0 || a.EditThis == nil || len(c.results.Objects) > 1
	c.more.Hidden = c.lastResult == 0 || a.MoreLike == nil
	c.results.Refresh()
	c.unsaved.Refresh()
}

// beforeOf is what a finished card compares: the result with its first
// input beside it (a kept edit's), small and large; the first result
// alone when none has one.
func beforeOf(results []Result) (after, before image.Image, beforeData []byte, afterPath string) {
	after = results[0].Thumb
	for _, r := range results {
		if r.Before != nil && before == nil {
			after, before = r.Thumb, r.Before
		}
		if r.BeforeData != nil && r.Path != "" && beforeData == nil {
			beforeData, afterPath = r.BeforeData, r.Path
		}
	}
	return after, before, beforeData, afterPath
}

// turnsOf are the results' places in their threads, each said once.
func turnsOf(results []Result) []string {
	var turns []string
	for _, r := range results {
		if r.Turn != "" && !slices.Contains(turns, r.Turn) {
			turns = append(turns, r.Turn)
		}
	}
	return turns
}

// toggleBefore shows the first input in the large preview, or the result
// again: what the edit changed, and that the rest stayed.
func (c *Card) toggleBefore() {
	c.showingBefore = !c.showingBefore
	if c.showingBefore {
		c.preview.SetImage(c.before)
		c.compare.SetText(catalogue.T("After"))
	} else {
		c.preview.SetImage(c.after)
		c.compare.SetText(catalogue.T("Before"))
	}
}

// CanCompare reports whether the card offers Before/After; ShowingBefore
// whether it shows the first input now.
func (c *Card) CanCompare() bool { return c.compare.Visible() }

// ShowingBefore reports whether the preview shows the first input.
func (c *Card) ShowingBefore() bool { return c.showingBefore }

// ToggleBefore taps Before/After, for tests.
func (c *Card) ToggleBefore() { c.compare.OnTapped() }

// SaveAsOffers is how many unsaved images the card offers to save.
func (c *Card) SaveAsOffers() int { return len(c.unsaved.Objects) }

// SaveAs taps Save as… of the i-th unsaved image, for tests.
func (c *Card) SaveAs(i int) {
	row := c.unsaved.Objects[i].(*fyne.Container)
	for _, o := range row.Objects {
		if box, ok := o.(*fyne.Container); ok && len(box.Objects) == 2 {
			box.Objects[1].(*fyne.Container).Objects[0].(*widget.Button).OnTapped()
		}
	}
}

// EditResult taps the Edit of result i (from 0), for tests.
func (c *Card) EditResult(i int) { c.tileEdits[i].OnTapped() }

// EditThis taps "Edit this result", for tests; CanEditThis says whether
// the card offers it.
func (c *Card) EditThis() { c.editThis.OnTapped() }

// CanEditThis reports whether the card offers "Edit this result".
func (c *Card) CanEditThis() bool { return c.editThis.Visible() }

// Opens is how many results the card offers to open.
func (c *Card) Opens() int { return len(c.results.Objects) }

// Open taps result i, for tests.
func (c *Card) Open(i int) {
	c.results.Objects[i].(*fyne.Container).Objects[1].(*widget.Button).OnTapped()
}

// CanRetry reports whether the card offers Retry; NeedsSettings whether
// it offers Open Settings.
func (c *Card) CanRetry() bool      { return c.retry.Visible() }
func (c *Card) NeedsSettings() bool { return c.settings.Visible() }

// Retry taps Retry, for tests.
func (c *Card) Retry() { c.retry.OnTapped() }

// Hint is what the card says under its status (advice, a failure's
// cause), for tests.
func (c *Card) Hint() string { return c.hint.Text }

// CanCancel reports whether the card offers Cancel (its job runs).
func (c *Card) CanCancel() bool { return c.cancel.Visible() }

// apply shows one job event; img is the decoded preview, if any.
func (c *Card) apply(e jobs.Event, img image.Image) {
	secs := catalogue.Duration(e.Elapsed.Round(time.Second))
	switch e.State {
	case jobs.Queued:
		c.Status.SetText(catalogue.T("Queued"))
	case jobs.Sending:
		c.showSending(e)
	case jobs.Waiting:
		if e.RetryIn > 0 {
			c.Status.SetText(catalogue.F("The service asked to wait: sending again in %s", catalogue.Duration(e.RetryIn.Round(time.Second))))
		} else if c.progress != nil {
			c.Status.SetText(c.progress(secs)) // how far it has come, with the time
		} else if c.sent > 0 {
			c.Status.SetText(catalogue.F("Sent %s · waiting for the service · %s", humanize.Bytes(uint64(c.sent)), secs))
		} else {
			c.Status.SetText(catalogue.F("Waiting for the service · %s", secs))
		}
	case jobs.Partial:
		c.showPartial(e, img, secs)
	case jobs.Saving:
		c.Status.SetText(catalogue.T("Saving to the gallery…"))
	case jobs.Done:
		if said := e.Honesty.Sentences(); len(said) > 0 {
			c.say(append(c.notes(), kit.Sentences(said)...))
		}
		if e.Dropped > 0 {
			c.hint.SetText(catalogue.F("The service sent %s more than were asked for; they were not kept.", countImages(e.Dropped)))
			c.hint.Show()
		}
		if len(e.Unsaved) == 0 {
			c.Status.SetText(catalogue.F("Done in %s · %s in the gallery", secs, countImages(len(e.ItemIDs))))
			break
		}
		all := len(e.ItemIDs) + len(e.Unsaved)
		if len(e.ItemIDs) == 0 {
			c.Status.SetText(catalogue.F("Arrived in %s · not saved in the gallery", secs))
		} else {
			c.Status.SetText(catalogue.F("Arrived in %s · %d of %s saved", secs, len(e.ItemIDs), countImages(all)))
		}
		c.hint.SetText(catalogue.N("%s could not be saved in the gallery: %s. Keep them with Save as…; the service has charged for them.",
			len(e.Unsaved), countImages(len(e.Unsaved)), library.Cause(e.Unsaved[0].Err)))
		if kept := unsavedPaths(e.Unsaved); len(kept) > 0 {
			c.hint.SetText(catalogue.N("%s could not be saved in the gallery: %s. The service has charged for them; their bytes are kept at %s, and the next start puts them in the gallery.",
				len(e.Unsaved), countImages(len(e.Unsaved)), library.Cause(e.Unsaved[0].Err), strings.Join(kept, ", ")))
		}
		c.hint.Show()
	case jobs.Failed:
		c.Status.SetText(e.Err.Title())
		c.hint.SetText(e.Err.Hint)
		c.hint.Show()
		c.words.SetText(e.Err.Error())
		c.wordsButton.Show()
		c.retry.Show()
		switch e.Err.Kind {
		case api.KindAuth, api.KindInsufficientBalance, api.KindNoAccess:
			c.settings.Show()
		case api.KindUnknownModel:
			if e.Err.Group != "" && c.actions.OtherGroup != nil {
				model, failure := e.Job.Request.Options().Model, *e.Err
				c.actions.OtherGroup(model, e.Job.Request, func(group string, send func()) {
					failure.InAnotherGroup(model, group)
					c.hint.SetText(failure.Hint)
					c.offerGroup(group, send)
				})
			}
		}
	case jobs.Cancelled:
		c.Status.SetText(catalogue.T("Cancelled"))
		c.showSending(e)
		c.retry.SetText(catalogue.T("Run again"))
		c.retry.Show()
	case jobs.Interrupted:
		c.showInterrupted(e)
	}
	c.showCharge(e)
	if len(e.Aside) > 0 {
		said := catalogue.N("The service sent %d things that are not pictures; their bytes are kept at %s.", len(e.Aside), len(e.Aside), strings.Join(e.Aside, ", "))
		c.hint.SetText(strings.TrimSpace(c.hint.Text + " " + said))
		c.hint.Show()
	}
	if img != nil {
		c.preview.SetImage(img)
	}
	if e.State.Final() {
		c.final = true
		c.cancel.Hide()
		c.clear.Show()
	}
}

// showInterrupted says what became of a job found cut off at a start:
// what had arrived of it, whether it was answered, why its batch did not
// make it, and offers to send it again.
func (c *Card) showInterrupted(e jobs.Event) {
	c.Status.SetText(catalogue.T("Interrupted"))
	c.hint.SetText(catalogue.F("Easel closed while the service was working on this (sent %s): it may have been charged. Check the gallery and the account's usage before sending it again.",
		e.Job.Started.Local().Format(catalogue.T("2 Jan 15:04"))))
	if n := len(e.ItemIDs); n > 0 {
		c.Status.SetText(catalogue.N("Interrupted · %s had arrived and is in the gallery", n, countImages(n)))
		c.hint.SetText(catalogue.F("Easel closed while the service was working on this (sent %s). What had arrived is kept below; the rest may have been charged too. Check the account's usage before sending it again.",
			e.Job.Started.Local().Format(catalogue.T("2 Jan 15:04"))))
	}
	if e.Job.Answered {
		c.showAnsweredUnsaved(e)
	}
	if e.Job.Left != "" {
		c.Status.SetText(catalogue.T("Not made by its batch"))
		c.hint.SetText(kit.Sentences([]string{e.Job.Left})[0])
	}
	c.hint.Show()
	c.retry.Show()
}

// showSending shows how far the request has gone out: the notes of how
// it was shaped, an upload's bytes, rate and time left; and, for a
// cancel during the upload, that the service never had it.
func (c *Card) showSending(e jobs.Event) {
	switch {
	case e.State == jobs.Cancelled:
		if c.sent > 0 && !c.sentAll && e.Charged == nil {
			c.hint.SetText(catalogue.T("Stopped during the upload: the service never had the whole request, so nothing was charged."))
			c.hint.Show()
		}
	case e.Upload != nil:
		c.sent, c.sentAll = e.Upload.Total, e.Upload.Done()
		c.Status.SetText(e.Upload.String())
	default:
		c.Status.SetText(catalogue.T("Sending…"))
		c.say(e.Notes)
	}
}

// showPartial shows a preview, or of a job of several images an image
// that has arrived, in its slot, and says how far the job has come.
func (c *Card) showPartial(e jobs.Event, img image.Image, secs string) {
	p := e.Preview
	if p == nil {
		return
	}
	if p.Image >= 0 && p.Image < len(c.slots) && img != nil {
		c.slots[p.Image].SetImage(img)
	}
	image, index, final := p.Image+1, p.Index+1, p.Final
	switch {
	case c.of < 2:
		c.progress = func(secs string) string { return catalogue.F("Preview %d · %s", index, secs) }
	case final:
		c.progress = func(secs string) string { return catalogue.F("Image %d of %d arrived · %s", image, c.of, secs) }
	default:
		c.progress = func(secs string) string {
			return catalogue.F("Image %d of %d: preview %d · %s", image, c.of, index, secs)
		}
	}
	c.Status.SetText(c.progress(secs))
}

// showCharge adds what a finished request cost to its status line, and
// says of a failed or cancelled one that may have been billed what it
// is counted as.
func (c *Card) showCharge(e jobs.Event) {
	ch := e.Charged
	if ch == nil || !ch.Priced {
		return
	}
	switch e.State {
	case jobs.Done:
		c.Status.SetText(c.Status.Text + " · " + ch.String())
	case jobs.Failed, jobs.Cancelled:
		c.Status.SetText(c.Status.Text + catalogue.T(" · may have been charged"))
		c.Cost.SetText(catalogue.F("The service had begun, so it may have charged for this: %s is counted in the spend until its usage is known.", ch.Amount))
		c.Cost.Show()
	}
}

// offerGroup offers to send the job again with the key of group, which
// lists the model the failed request asked for.
func (c *Card) offerGroup(group string, send func()) {
	c.otherGroup.SetText(catalogue.F("Send with group %s's key", group))
	c.otherGroup.OnTapped = func() {
		c.otherGroup.Hide()
		send()
	}
	c.otherGroup.Show()
}

// OtherGroupOffer is the offer to send with another group's key, if
// shown; SendWithOtherGroup taps it, for tests.
func (c *Card) OtherGroupOffer() (string, bool) { return c.otherGroup.Text, c.otherGroup.Visible() }

// SendWithOtherGroup taps the other group's offer.
func (c *Card) SendWithOtherGroup() { c.otherGroup.OnTapped() }

// say shows sentences on the card, one per line; none hides the line.
func (c *Card) say(sentences []string) {
	if len(sentences) == 0 {
		return
	}
	ended := make([]string, len(sentences))
	for i, s := range sentences {
		// Each a sentence of its own, ended in its language's stop: some
		// notes came without one (#57).
		ended[i] = wording.FullStop(strings.TrimSpace(s))
	}
	c.Said.SetText(strings.Join(ended, "\n"))
	c.Said.Show()
}

// notes are the sentences said before sending, still shown.
func (c *Card) notes() []string {
	if !c.Said.Visible() || c.Said.Text == "" {
		return nil
	}
	return strings.Split(c.Said.Text, "\n")
}

// ServiceWords is the service's own words for a failure, shown one
// click away; ShowServiceWords taps the button, for tests.
func (c *Card) ServiceWords() (string, bool) { return c.words.Text, c.words.Visible() }

// ShowServiceWords taps "What the service said".
func (c *Card) ShowServiceWords() { c.wordsButton.OnTapped() }

func countImages(n int) string { return catalogue.N("%d images", n, n) }

// List is a tab's job cards, newest on top. Use it on the UI goroutine.
type List struct {
	// Box is the list for a tab to lay out.
	Box       *fyne.Container
	cards     *fyne.Container
	empty     *widget.Label
	clearAll  *widget.Button
	actions   Actions
	byID      map[string]*Card
	order     []string // job ids, newest first
	keepFinal int
}

// NewList makes an empty list that shows emptyHint until the first job;
// a's functions are what the cards' buttons do.
func NewList(emptyHint string, a Actions) *List {
	l := &List{actions: a, byID: map[string]*Card{}, keepFinal: KeepFinished}
	l.empty = kit.HintLabel(emptyHint)
	l.cards = container.NewVBox()
	l.clearAll = &widget.Button{Text: catalogue.T("Clear finished"), Icon: theme.ContentClearIcon(), Importance: widget.LowImportance, OnTapped: l.ClearFinished}
	l.clearAll.Hide()
	l.Box = container.NewVBox(l.empty, l.cards, container.NewHBox(l.clearAll))
	return l
}

// Len is how many cards the list shows.
func (l *List) Len() int { return len(l.order) }

// Card is the card of a job, or nil.
func (l *List) Card(id string) *Card { return l.byID[id] }

// Show applies a job event, making the job's card on its first event;
// img is a preview, results a finished job's images.
func (l *List) Show(e jobs.Event, img image.Image, results []Result) {
	c := l.byID[e.Job.ID]
	if c == nil {
		id := e.Job.ID
		c = newCard(e, l.actions, func() { l.remove(id) })
		l.byID[id] = c
		if old := e.Job.Request.Replaces; l.byID[old] != nil && l.byID[old].final {
			// A retry: the new job takes the old card's place.
			i := slices.Index(l.order, old)
			l.order[i] = id
			delete(l.byID, old)
		} else {
			l.order = append([]string{id}, l.order...)
		}
		l.dropOldFinished()
		l.relayout()
	}
	c.apply(e, img)
	if len(results) > 0 {
		c.showResults(results, l.actions, Prompt(e))
	}
	if e.State.Final() {
		l.dropOldFinished()
		l.relayout()
	}
}

// ClearFinished removes every finished, failed and cancelled card.
func (l *List) ClearFinished() {
	for _, id := range append([]string(nil), l.order...) {
		if l.byID[id].final {
			l.drop(id)
		}
	}
	l.relayout()
}

func (l *List) remove(id string) {
	l.drop(id)
	l.relayout()
}

func (l *List) drop(id string) {
	delete(l.byID, id)
	for i, o := range l.order {
		if o == id {
			l.order = append(l.order[:i], l.order[i+1:]...)
			return
		}
	}
}

// dropOldFinished keeps at most keepFinal finished cards, the newest.
func (l *List) dropOldFinished() {
	finished := 0
	for _, id := range append([]string(nil), l.order...) {
		if !l.byID[id].final {
			continue
		}
		if finished++; finished > l.keepFinal {
			l.drop(id)
		}
	}
}

// relayout puts the cards in order with separators, and shows the empty
// hint and Clear finished as they apply.
func (l *List) relayout() {
	objs := make([]fyne.CanvasObject, 0, 2*len(l.order))
	anyFinal := false
	for _, id := range l.order {
		c := l.byID[id]
		objs = append(objs, c.root, widget.NewSeparator())
		anyFinal = anyFinal || c.final
	}
	l.cards.Objects = objs
	l.empty.Hidden = len(l.order) > 0
	l.clearAll.Hidden = !anyFinal
	l.Box.Refresh()
}

// Prompt is the prompt of the job an event is about.
func Prompt(e jobs.Event) string {
	if g := e.Job.Request.Generate; g != nil {
		return g.Prompt
	}
	if ed := e.Job.Request.Edit; ed != nil {
		return ed.Prompt
	}
	return ""
}

// Cards is the list's cards, newest first.
func (l *List) Cards() []*Card {
	out := make([]*Card, len(l.order))
	for i, id := range l.order {
		out[i] = l.byID[id]
	}
	return out
}

// showAnsweredUnsaved words the card of a job found cut off whose answer
// had come and been charged, and only its saving failed: sending it
// again is a second charge, and says so.
func (c *Card) showAnsweredUnsaved(e jobs.Event) {
	sent := e.Job.Started.Local().Format(catalogue.T("2 Jan 15:04"))
	c.retry.SetText(catalogue.T("Send again (charged again)"))
	switch {
	case len(e.ItemIDs) > 0:
		c.Status.SetText(catalogue.T("Paid · saved at this start"))
		c.hint.SetText(catalogue.F("The service answered this request (sent %s) and charged for it, but its images could not be saved then. They were kept aside and are in the gallery now.", sent))
	case len(e.Job.KeptAt) > 0:
		c.Status.SetText(catalogue.T("Paid · not saved"))
		c.hint.SetText(catalogue.F("The service answered this request (sent %s) and charged for it, but its images could not be saved in the gallery. Their bytes are kept at %s.", sent, strings.Join(e.Job.KeptAt, ", ")))
	default:
		c.Status.SetText(catalogue.T("Paid · not saved"))
		c.hint.SetText(catalogue.F("The service answered this request (sent %s) and charged for it, but its images could not be saved anywhere. Sending it again is charged again.", sent))
	}
}

// unsavedPaths are the fallback files unsaved images were kept in.
func unsavedPaths(us []jobs.Unsaved) []string {
	var out []string
	for _, u := range us {
		if u.Path != "" {
			out = append(out, u.Path)
		}
	}
	return out
}
