// Package imageform is the form of every image option the service takes —
// model, size with custom sizes checked as they are typed, quality,
// background, format and compression, moderation, count, streaming — as
// Text to image and Edit both show it, read into the request value the
// service client sends. It knows nothing of the app.
package imageform

import (
	"image"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/ui/kit"
	"easel/ui/modelpick"
)

// SizePreset pairs what the user reads with the size the service takes.
type SizePreset struct {
	Label string
	Value string
}

// SizePresets name what each size suits, so a designer picks by purpose.
// It is a function, as are the labels below: the language is chosen after
// packages initialise.
func SizePresets() []SizePreset {
	return []SizePreset{
		{catalogue.T("Auto — the model chooses"), "auto"},
		{catalogue.T("Square 1024×1024 — avatars, icons, products"), "1024x1024"},
		{catalogue.T("Landscape 1536×1024 — posters, covers"), "1536x1024"},
		{catalogue.T("Portrait 1024×1536 — phone wallpapers, character posters"), "1024x1536"},
		{CustomSizeLabel(), ""},
	}
}

// CustomSizeLabel is the size choice that shows the width and height fields.
func CustomSizeLabel() string { return catalogue.T("Custom…") }

// MatchLabel is Edit's size choice that asks for the first image's shape,
// so the result lines up with it (and its unmasked area can be kept).
func MatchLabel() string { return catalogue.T("Match the first image") }

// Choice maps a Select's labels to the values the service takes.
type Choice struct {
	Labels []string
	Values []string
}

// Value is the service's value for a label, "" for none.
func (c Choice) Value(label string) string {
	for i, l := range c.Labels {
		if l == label {
			return c.Values[i]
		}
	}
	return ""
}

// BackgroundChoice is the service's background values.
func BackgroundChoice() Choice {
	return Choice{[]string{catalogue.T("Auto"), catalogue.T("Opaque"), catalogue.T("Transparent")}, []string{"auto", "opaque", "transparent"}}
}

// ModerationChoice is the service's moderation values.
func ModerationChoice() Choice {
	return Choice{[]string{catalogue.T("Auto"), catalogue.T("Low")}, []string{"auto", "low"}}
}

// Form holds the controls for every image option the service
// takes; Text to image and Edit each have one.
type Form struct {
	// Model is the model field.
	Model     *modelpick.Picker
	size      *widget.Select
	customW   *widget.Entry
	customH   *widget.Entry
	customRow *fyne.Container
	// useNearest puts the nearest size every rule allows in the fields,
	// under a size that breaks one.
	useNearest *widget.Button
	sizeNote   *widget.Label
	quality    *widget.Select
	qualityC   *choice
	background *widget.Select
	bgNote     *widget.Label
	formatNote *widget.Label
	format     *widget.Select
	formatC    *choice
	// complexityC is GPT Image 2.6's complexity, shown for models whose
	// sheet has it ("" first: the model's default).
	complexityC   *choice
	complexityRow *fyne.Container
	// frames and frameMs are a GIF's; gif is the model's GIF rules, nil
	// when its sheet has none.
	frames      *widget.Select
	frameMs     *widget.Entry
	gifRow      *fyne.Container
	gifNote     *widget.Label
	gif         *capability.GIF
	compression *widget.Slider
	compressRow *fyne.Container
	// qualityValue shows the compression slider's value.
	qualityValue *widget.Label
	moderation   *widget.Select
	n            *widget.Select
	stream       *widget.Check
	partials     *widget.Select
	// match is the first image's size, for MatchLabel(); nil when the form
	// does not offer it. matchNote says what it sends.
	match     func() (image.Point, bool)
	matchNote *widget.Label
	// OnSizeChanged is told when the size that would be sent may have
	// changed (the choice, the model, or the first image for a match).
	OnSizeChanged func()
	// OnEdited is told when any option changes: a refusal said about the
	// options before is stale then.
	OnEdited func()
	// OnChanged is told when the model, the number of images, streaming
	// or the background change: what the service is known to do with
	// them is said under the form (SetServiceNotes).
	OnChanged func()
	// serviceNote says what the connected service is known not to do
	// with these options, before anything is sent.
	serviceNote *widget.Label
	// sheetModel is the model whose sheet the choices follow; modelNote
	// (in modelRow, with an Undo) says what its last change reset, and
	// undoReset puts it back (nil when there is nothing to undo).
	sheetModel string
	modelNote  *widget.Label
	modelRow   *fyne.Container
	undoReset  func()
	// Form is the whole form, for a tab to lay out.
	Form *widget.Form
}

// New makes the form around a model picker; extra rows come first.
func New(model *modelpick.Picker, extra ...*widget.FormItem) *Form {
	f := &Form{Model: model}

	labels := make([]string, len(SizePresets()))
	for i, p := range SizePresets() {
		labels[i] = p.Label
	}
	f.customW = &widget.Entry{PlaceHolder: catalogue.T("width"), OnChanged: func(string) { f.checkCustom() }}
	f.customH = &widget.Entry{PlaceHolder: catalogue.T("height"), OnChanged: func(string) { f.checkCustom() }}
	f.sizeNote = kit.HintLabel("")
	f.sizeNote.Hide()
	f.useNearest = &widget.Button{Importance: widget.LowImportance}
	f.useNearest.Hide()
	f.customRow = container.NewVBox(
		// The "×" sits between the two fields, not centred in a column
		// of its own.
		container.NewGridWithColumns(2, f.customW, container.NewBorder(nil, nil, widget.NewLabel("×"), nil, f.customH)),
		f.sizeNote, container.NewHBox(f.useNearest))
	f.customRow.Hide()
	f.matchNote = kit.HintLabel("")
	f.matchNote.Hide()
	f.size = widget.NewSelect(labels, func(label string) {
		if label == CustomSizeLabel() {
			f.customRow.Show()
		} else {
			f.customRow.Hide()
		}
		f.SizeChanged()
	})
	f.size.SetSelected(SizePresets()[1].Label)

	f.qualityC = newChoice("quality", plainQualities, func() { f.edited() })
	f.quality = f.qualityC.sel
	f.quality.SetSelected(catalogue.T("Auto"))
	f.complexityC = newChoice("complexity", []string{"", "low", "medium", "high"}, func() { f.edited() })
	// Complexity sits under Quality, labelled in its own row, so a model
	// without it shows no empty label in the form.
	f.complexityRow = container.NewBorder(nil, nil, widget.NewLabel(catalogue.T("Complexity")), nil, f.complexityC.box)
	f.complexityRow.Hide()
	gifRow := f.newGIFRow()

	f.compression = widget.NewSlider(0, 100)
	f.compression.Step = 1
	f.compression.SetValue(100)
	// The service's output_compression, named and scaled as Export's
	// quality is: 100 is the best, the least compressed.
	f.qualityValue = widget.NewLabel("100")
	f.compression.OnChanged = func(v float64) { f.qualityValue.SetText(strconv.Itoa(int(v))) }
	f.compressRow = container.NewBorder(nil, nil, widget.NewLabel(catalogue.T("Compression quality")), f.qualityValue, f.compression)
	f.bgNote = kit.HintLabel("")
	f.bgNote.Hide()
	f.formatNote = kit.HintLabel("")
	f.formatNote.Hide()
	f.formatC = newChoice("output_format", plainFormats, func() { f.syncFormat() })
	f.format = f.formatC.sel
	f.background = widget.NewSelect(BackgroundChoice().Labels, func(string) { f.syncBackground(); f.changed() })
	f.background.SetSelected(catalogue.T("Auto"))
	f.format.SetSelected("PNG")
	model.OnChanged = func(string) { f.followSheet(); f.SizeChanged(); f.changed() }

	f.moderation = widget.NewSelect(ModerationChoice().Labels, func(string) { f.edited() })
	f.moderation.SetSelected(catalogue.T("Auto"))

	counts := make([]string, 10)
	for i := range counts {
		counts[i] = strconv.Itoa(i + 1)
	}
	f.n = widget.NewSelect(counts, func(string) { f.changed() })
	f.n.SetSelected("1")

	f.partials = widget.NewSelect([]string{"0", "1", "2", "3"}, func(string) { f.edited() })
	f.partials.SetSelected("2")
	f.stream = widget.NewCheck(catalogue.T("Stream with live previews"), func(on bool) {
		if on {
			f.partials.Enable()
		} else {
			f.partials.Disable()
		}
		f.changed()
	})
	f.stream.SetChecked(true)
	f.serviceNote = kit.HintLabel("")
	f.serviceNote.Importance = widget.WarningImportance
	f.serviceNote.Hide()

	f.modelNote = kit.HintLabel("")
	f.modelNote.Wrapping = fyne.TextWrapWord
	f.modelRow = container.NewBorder(nil, nil, nil,
		&widget.Button{Text: catalogue.T("Undo"), Importance: widget.LowImportance, OnTapped: f.UndoModelReset}, f.modelNote)
	f.modelRow.Hide()

	// The model and the size keep the form's width, for their long
	// names; the pickers of short choices share one width.
	short := &shortPickers{}
	items := append(extra, widget.NewFormItem(catalogue.T("Model"), container.NewVBox(f.Model.Object, f.modelRow)))
	f.Form = widget.NewForm(append(items,
		widget.NewFormItem(catalogue.T("Size"), container.NewVBox(f.size, f.matchNote, f.customRow)),
		widget.NewFormItem(catalogue.T("Quality"), container.NewVBox(short.wrap(f.quality), f.qualityC.other, f.complexityRow)),
		widget.NewFormItem(catalogue.T("Background"), container.NewVBox(short.wrap(f.background), f.bgNote)),
		widget.NewFormItem(catalogue.T("Format"), container.NewVBox(short.wrap(f.format), f.formatC.other, f.formatNote, f.compressRow, gifRow)),
		widget.NewFormItem(catalogue.T("Moderation"), short.wrap(f.moderation)),
		widget.NewFormItem(catalogue.T("Images"), short.wrap(f.n)),
		widget.NewFormItem(catalogue.T("Stream"), f.stream),
		widget.NewFormItem(catalogue.T("Previews"), container.NewVBox(short.wrap(f.partials), f.serviceNote)),
	)...)
	f.followSheet()
	return f
}

func (f *Form) changed() {
	f.edited()
	if f.OnChanged != nil {
		f.OnChanged()
	}
}

// SetServiceNotes says under the form what the connected service is
// known not to do with these options (no previews, one image per
// request), one sentence a line; none hides the line.
func (f *Form) SetServiceNotes(notes []string) {
	if len(notes) == 0 {
		f.serviceNote.Hide()
		return
	}
	f.serviceNote.SetText(strings.Join(notes, "\n"))
	f.serviceNote.Show()
}

// ServiceNotes is what the form says of the service, for tests.
func (f *Form) ServiceNotes() string {
	if !f.serviceNote.Visible() {
		return ""
	}
	return f.serviceNote.Text
}

// checkCustom validates a custom size as it is typed, with the service's
// rules, and says what to change.
func (f *Form) checkCustom() {
	f.edited()
	w, h := strings.TrimSpace(f.customW.Text), strings.TrimSpace(f.customH.Text)
	f.useNearest.Hide()
	if w == "" || h == "" {
		f.sizeNote.Hide()
		return
	}
	if err := api.DefaultLimits.CheckSize(w + "x" + h); err != nil {
		f.sizeNote.SetText(kit.ErrorText(err))
		f.sizeNote.Importance = widget.DangerImportance
		if pw, ph, ok := api.ParseSize(w + "x" + h); ok {
			nw, nh := api.DefaultLimits.Nearest(pw, ph)
			f.useNearest.SetText(catalogue.F("Use %d × %d", nw, nh))
			f.useNearest.OnTapped = func() {
				f.customW.SetText(strconv.Itoa(nw))
				f.customH.SetText(strconv.Itoa(nh))
			}
			f.useNearest.Show()
		}
	} else if slices.Contains(api.StandardSizes, w+"x"+h) {
		f.sizeNote.SetText(catalogue.F("%s × %s is one of the sizes every GPT image model makes.", w, h))
		f.sizeNote.Importance = widget.MediumImportance
	} else {
		f.sizeNote.SetText(catalogue.F("%s × %s follows every rule for custom sizes: models that take them (gpt-image-2) make it; the others refuse it.", w, h))
		f.sizeNote.Importance = widget.MediumImportance
	}
	f.sizeNote.Show()
	f.sizeNote.Refresh()
}

// OfferMatch adds "Match the first image" to the sizes, and chooses it:
// first is that image's size, false while there is none.
func (f *Form) OfferMatch(first func() (image.Point, bool)) {
	f.match = first
	opts := append([]string{f.size.Options[0], MatchLabel()}, f.size.Options[1:]...)
	f.size.Options = opts
	f.size.SetSelected(MatchLabel())
}

// Matching reports whether "Match the first image" is chosen.
func (f *Form) Matching() bool { return f.match != nil && f.size.Selected == MatchLabel() }

// MatchFirst chooses "Match the first image", where the form offers it:
// a widened canvas is sent at its own shape.
func (f *Form) MatchFirst() {
	if f.match != nil {
		f.size.SetSelected(MatchLabel())
	}
}

// SizeChanged shows what "Match the first image" sends, and tells
// OnSizeChanged; Edit calls it when the first image changes.
func (f *Form) SizeChanged() {
	f.edited()
	if f.matchNote == nil {
		return
	}
	if f.match != nil && f.size.Selected == MatchLabel() {
		if p, ok := f.match(); ok {
			f.matchNote.SetText(catalogue.F("Sends %s for the first image's %d×%d.", api.MatchSize(f.Model.Text(), p.X, p.Y), p.X, p.Y))
		} else {
			f.matchNote.SetText(catalogue.T("Sends auto until there is a first image."))
		}
		f.matchNote.Show()
	} else {
		f.matchNote.Hide()
	}
	if f.OnSizeChanged != nil {
		f.OnSizeChanged()
	}
}

// SetOptions fills the form from saved settings ("reuse settings"):
// every value as saved, nothing reset by the change of model.
func (f *Form) SetOptions(o api.ImageOptions) {
	f.Model.SetText(o.Model)
	f.modelRow.Hide()
	f.undoReset = nil
	custom := o.Size != ""
	for _, p := range SizePresets() {
		if p.Value != "" && p.Value == o.Size {
			f.size.SetSelected(p.Label)
			custom = false
		}
	}
	if custom {
		if w, h, ok := api.ParseSize(o.Size); ok {
			f.size.SetSelected(CustomSizeLabel())
			f.customW.SetText(strconv.Itoa(w))
			f.customH.SetText(strconv.Itoa(h))
		}
	}
	f.qualityC.set(o.Quality)
	selectValue(f.background, BackgroundChoice(), o.Background)
	f.formatC.set(orPNG(o.OutputFormat))
	f.complexityC.set(o.Complexity)
	if o.Frames > 0 {
		f.frames.SetSelected(strconv.Itoa(o.Frames))
	}
	if o.FrameMillis > 0 {
		f.frameMs.SetText(strconv.Itoa(o.FrameMillis))
	}
	selectValue(f.moderation, ModerationChoice(), o.Moderation)
	if o.OutputCompression != nil {
		f.compression.SetValue(float64(*o.OutputCompression))
	}
	if o.N > 0 {
		f.n.SetSelected(strconv.Itoa(o.N))
	}
	f.stream.SetChecked(o.Stream)
	if o.Stream {
		f.partials.SetSelected(strconv.Itoa(o.PartialImages))
	}
}

func orPNG(format string) string {
	if format == "" {
		return "png"
	}
	return format
}

func selectValue(s *widget.Select, c Choice, v string) {
	for i, val := range c.Values {
		if val == v {
			s.SetSelected(c.Labels[i])
		}
	}
}

// syncBackground keeps the format compatible with a transparent
// background, and says next to the control what it changed and why.
func (f *Form) syncBackground() {
	f.formatNote.Hide()
	if f.background.Selected != catalogue.T("Transparent") {
		f.bgNote.Hide()
		return
	}
	if f.format.Selected == "JPEG" {
		f.format.SetSelected("PNG")
		f.formatNote.Hide() // set by syncFormat; the change is said here
		f.bgNote.SetText(catalogue.T("Format changed from JPEG to PNG: a transparent background needs PNG or WebP, and JPEG has no transparency."))
	} else {
		f.bgNote.SetText(catalogue.T("A transparent background needs PNG or WebP; choosing JPEG sets the background back to Auto."))
	}
	f.bgNote.Show()
}

// syncFormat shows compression only where the service accepts it, and
// when JPEG is picked over a transparent background, sets the background
// back to Auto and says so next to the format.
func (f *Form) syncFormat() {
	if f.gifRow == nil || f.formatC == nil {
		return // New is still building the form
	}
	if format := f.formatC.value(); format == "jpeg" || format == "webp" {
		f.compressRow.Show()
	} else {
		f.compressRow.Hide()
	}
	if f.formatC.value() == "gif" {
		if f.gif != nil {
			f.gifNote.SetText(catalogue.F("The frames lie on one sheet whose long side stays within %d pixels: each frame is drawn, and billed.", f.gif.MaxSheetSide))
		} else {
			f.gifNote.SetText(catalogue.T("Each frame is drawn, and billed."))
		}
		f.gifRow.Show()
	} else {
		f.gifRow.Hide()
	}
	f.formatNote.Hide()
	if f.format.Selected == "JPEG" && f.background.Selected == catalogue.T("Transparent") {
		f.background.SetSelected(catalogue.T("Auto"))
		f.formatNote.SetText(catalogue.T("Background changed from Transparent to Auto: JPEG has no transparency."))
		f.formatNote.Show()
	}
}

// edited tells OnEdited that an option changed. A note on the format
// (syncFormat, which edits the background before it speaks) is about the
// change just made: any edit after it clears it.
func (f *Form) edited() {
	if f.formatNote != nil { // nil while New builds the form
		f.formatNote.Hide()
	}
	if f.OnEdited != nil {
		f.OnEdited()
	}
}

// Options reads the form into the request value the service client takes.
func (f *Form) Options() api.ImageOptions {
	o := api.ImageOptions{
		Model:        f.Model.Text(),
		Quality:      f.qualityC.value(),
		Background:   BackgroundChoice().Value(f.background.Selected),
		OutputFormat: f.formatC.value(),
		Moderation:   ModerationChoice().Value(f.moderation.Selected),
		Stream:       f.stream.Checked,
	}
	for _, p := range SizePresets() {
		if p.Label == f.size.Selected {
			o.Size = p.Value
		}
	}
	switch f.size.Selected {
	case CustomSizeLabel():
		o.Size = strings.TrimSpace(f.customW.Text) + "x" + strings.TrimSpace(f.customH.Text)
	case MatchLabel():
		o.Size = "auto"
		if p, ok := f.match(); ok {
			o.Size = api.MatchSize(o.Model, p.X, p.Y)
		}
	}
	if o.OutputFormat == "jpeg" || o.OutputFormat == "webp" {
		c := int(f.compression.Value)
		o.OutputCompression = &c
	}
	if f.complexityRow.Visible() || f.complexityC.sel.Selected == OtherLabel() {
		o.Complexity = f.complexityC.value()
	}
	if o.OutputFormat == "gif" {
		o.Frames, o.FrameMillis = f.gifOptions()
	}
	o.N, _ = strconv.Atoi(f.n.Selected)
	if o.Stream {
		o.PartialImages, _ = strconv.Atoi(f.partials.Selected)
	}
	return o
}

// ApplyDefaults sets the options a profile starts its requests from;
// fields the profile leaves empty keep the form's values.
func (f *Form) ApplyDefaults(model string, d config.ImageDefaults) {
	o := f.Options()
	for _, set := range []struct {
		dst *string
		v   string
	}{
		{&o.Model, model}, {&o.Size, d.Size}, {&o.Quality, d.Quality}, {&o.Background, d.Background},
		{&o.OutputFormat, d.OutputFormat}, {&o.Moderation, d.Moderation},
	} {
		if set.v != "" {
			*set.dst = set.v
		}
	}
	if d.Stream != nil {
		o.Stream = *d.Stream
	}
	matching := f.size.Selected == MatchLabel()
	f.SetOptions(o)
	if matching && d.Size == "" {
		// Edit's "Match the first image" stays unless the profile
		// names a size: what it sends now is no default to keep.
		f.size.SetSelected(MatchLabel())
	}
}
