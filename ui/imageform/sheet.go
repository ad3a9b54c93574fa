package imageform

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/ui/kit"
)

// The form offers what the model's capability sheet says it takes, and
// follows the model as it is typed or picked: GPT Image 2.5 shows Extra
// high and Max, 2.6 its complexity and GIF and SVG results. Any other
// value is one click away (Other value…): it is sent as typed, and what
// the service answers is learnt.

// OtherLabel is the choice that shows a field for a value the list does
// not offer.
func OtherLabel() string { return catalogue.T("Other value…") }

// valueLabel is the name a designer picks value of field by; a value
// without one shows as it is sent.
func valueLabel(field, v string) string {
	names := map[string]string{
		"quality=auto": catalogue.T("Auto"), "quality=low": catalogue.T("Low"), "quality=medium": catalogue.T("Medium"),
		"quality=high": catalogue.T("High"), "quality=xhigh": catalogue.T("Extra high"), "quality=max": catalogue.T("Max"),
		"quality=standard": catalogue.T("Standard"), "quality=hd": catalogue.T("HD"),
		"output_format=png": "PNG", "output_format=jpeg": "JPEG", "output_format=webp": "WebP",
		"output_format=gif": catalogue.T("GIF (animated)"), "output_format=svg": catalogue.T("SVG (vector)"),
		"complexity=low": catalogue.T("Low"), "complexity=medium": catalogue.T("Medium"), "complexity=high": catalogue.T("High"),
	}
	if l, ok := names[field+"="+v]; ok {
		return l
	}
	if v == "" {
		return catalogue.T("The model's default") // not sent
	}
	return v
}

// choice is a Select of the values a model takes, with Other value… and
// a field for any other.
type choice struct {
	field  string
	sel    *widget.Select
	other  *widget.Entry
	values []string
	// box is the select with the other field under it.
	box *fyne.Container
}

func newChoice(field string, values []string, changed func()) *choice {
	c := &choice{field: field}
	c.other = &widget.Entry{PlaceHolder: catalogue.T("the value, as the service names it"), OnChanged: func(string) { changed() }}
	c.other.Hide()
	c.sel = widget.NewSelect(nil, func(label string) {
		if label == OtherLabel() {
			c.other.Show()
		} else {
			c.other.Hide()
		}
		changed()
	})
	c.box = container.NewVBox(c.sel, c.other)
	c.offer(values)
	return c
}

// offer lists values, keeping the value chosen: one the list no longer
// has moves to Other value…, so nothing the user chose is lost.
func (c *choice) offer(values []string) {
	cur := c.value()
	c.values = values
	labels := make([]string, 0, len(values)+1)
	for _, v := range values {
		labels = append(labels, valueLabel(c.field, v))
	}
	c.sel.Options = append(labels, OtherLabel())
	c.sel.Refresh()
	if cur != "" || c.sel.Selected != "" {
		c.set(cur)
	}
}

// value is what is sent: the listed value chosen, or the one typed.
func (c *choice) value() string {
	if c.sel.Selected == OtherLabel() {
		return strings.TrimSpace(c.other.Text)
	}
	for _, v := range c.values {
		if valueLabel(c.field, v) == c.sel.Selected {
			return v
		}
	}
	return ""
}

// set chooses v: its label when listed, else Other value… with v typed.
func (c *choice) set(v string) {
	if slices.Contains(c.values, v) {
		c.sel.SetSelected(valueLabel(c.field, v))
		return
	}
	if v == "" {
		if len(c.values) > 0 {
			c.sel.SetSelected(valueLabel(c.field, c.values[0]))
		}
		return
	}
	c.other.SetText(v)
	c.sel.SetSelected(OtherLabel())
}

// The values offered for a model without a sheet: what every GPT image
// model takes.
var (
	plainQualities = []string{"auto", "low", "medium", "high"}
	plainFormats   = []string{"png", "jpeg", "webp"}
)

// followSheet offers what the model's sheet says it takes, today. On a
// change of model, a value picked from the old model's list that the new
// one does not list returns to the new model's default, and the line
// under the model says so, with an Undo (a value typed under Other
// value… stays: the user meant it whatever the list).
func (f *Form) followSheet() {
	model := f.Model.Text()
	picked := map[*choice]string{}
	if f.sheetModel != "" && model != f.sheetModel {
		for _, c := range []*choice{f.qualityC, f.formatC, f.complexityC} {
			if v := c.value(); v != "" && c.sel.Selected != OtherLabel() {
				picked[c] = v
			}
		}
	}
	f.sheetModel = model
	s, ok := capability.Lookup(model)
	now := time.Now()
	offer := func(field string, plain []string) []string {
		if !ok {
			return plain
		}
		if v, has := s.Offers(field, now); has {
			return v
		}
		return plain
	}
	f.qualityC.offer(offer("quality", plainQualities))
	f.formatC.offer(offer("output_format", plainFormats))
	if v, has := s.Offers("complexity", now); ok && has {
		f.complexityC.offer(append([]string{""}, v...))
		f.complexityRow.Show()
	} else {
		f.complexityC.set("")
		f.complexityRow.Hide()
	}
	f.gif = nil
	if ok && s.GIF != nil {
		f.gif = s.GIF
	}
	f.resetUntaken(model, picked)
	f.syncFormat()
}

// resetUntaken returns each value picked for the old model that model
// does not list to model's default, and says what changed under the
// model, with an Undo; nothing changed hides the line.
func (f *Form) resetUntaken(model string, picked map[*choice]string) {
	var was, now []string
	var undo []func()
	for _, c := range []*choice{f.qualityC, f.formatC, f.complexityC} {
		old, ok := picked[c]
		if !ok || slices.Contains(c.values, old) {
			continue
		}
		def := c.fallback()
		c.other.SetText("")
		c.set(def)
		was, now = append(was, valueLabel(c.field, old)), append(now, valueLabel(c.field, def))
		undo = append(undo, func() { c.set(old) })
	}
	if len(was) == 0 {
		f.modelRow.Hide()
		f.undoReset = nil
		return
	}
	f.modelNote.SetText(catalogue.F("%s does not take %s: set to %s.", model, strings.Join(was, ", "), strings.Join(now, ", ")))
	f.undoReset = func() {
		for _, u := range undo {
			u()
		}
		f.modelRow.Hide()
		f.undoReset = nil
		f.syncFormat()
		f.edited()
	}
	f.modelRow.Show()
}

// fallback is the value a field returns to when the model does not
// take the one picked: auto, png or the model's default where listed,
// else the first it lists.
func (c *choice) fallback() string {
	for _, v := range []string{"auto", "png", ""} {
		if slices.Contains(c.values, v) {
			return v
		}
	}
	if len(c.values) > 0 {
		return c.values[0]
	}
	return ""
}

// ModelNote is the line a model change left under the model, "" when
// hidden; UndoModelReset takes the change back, as its button does.
func (f *Form) ModelNote() string {
	if !f.modelRow.Visible() {
		return ""
	}
	return f.modelNote.Text
}

// UndoModelReset puts back the values the last model change reset.
func (f *Form) UndoModelReset() {
	if f.undoReset != nil {
		f.undoReset()
	}
}

// newGIFRow is the frames of a GIF and how long each shows.
func (f *Form) newGIFRow() fyne.CanvasObject {
	counts := make([]string, 0, 24)
	for i := 2; i <= 24; i++ {
		counts = append(counts, strconv.Itoa(i))
	}
	f.frames = widget.NewSelect(counts, func(string) { f.edited() })
	f.frames.SetSelected("4")
	f.frameMs = &widget.Entry{Text: "120", OnChanged: func(string) { f.edited() }}
	f.gifNote = kit.HintLabel("")
	f.gifRow = container.NewVBox(
		container.NewGridWithColumns(2,
			container.NewBorder(nil, nil, widget.NewLabel(catalogue.T("Frames")), nil, f.frames),
			container.NewBorder(nil, nil, widget.NewLabel(catalogue.T("ms each")), nil, f.frameMs)),
		f.gifNote)
	f.gifRow.Hide()
	return f.gifRow
}

// gifOptions are the frames and their length the GIF row asks for.
func (f *Form) gifOptions() (frames, ms int) {
	frames, _ = strconv.Atoi(f.frames.Selected)
	ms, _ = strconv.Atoi(strings.TrimSpace(f.frameMs.Text))
	return frames, max(ms, 0)
}

// QualityChoice is the qualities every GPT image model takes, for a
// profile's defaults (the form itself offers the model's own).
func QualityChoice() Choice { return choiceOf("quality", plainQualities) }

// FormatChoice is the formats every GPT image model makes, for a
// profile's defaults.
func FormatChoice() Choice { return choiceOf("output_format", plainFormats) }

func choiceOf(field string, values []string) Choice {
	c := Choice{Values: values}
	for _, v := range values {
		c.Labels = append(c.Labels, valueLabel(field, v))
	}
	return c
}

// SetValue puts value in the field named by its wire name (quality,
// output_format, complexity, background, moderation): the nearest value
// a refusal offers.
func (f *Form) SetValue(field, value string) {
	switch field {
	case "quality":
		f.qualityC.set(value)
	case "output_format":
		f.formatC.set(value)
	case "complexity":
		f.complexityC.set(value)
	case "background":
		selectValue(f.background, BackgroundChoice(), value)
	case "moderation":
		selectValue(f.moderation, ModerationChoice(), value)
	}
	f.changed()
}
