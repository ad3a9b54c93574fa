package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/config"
)

// sizePreset pairs what the user reads with the size the service takes.
type sizePreset struct {
	label string
	value string
}

// sizePresets name what each size suits, so a designer picks by purpose.
var sizePresets = []sizePreset{
	{"Auto — the model chooses", "auto"},
	{"Square 1024×1024 — avatars, icons, products", "1024x1024"},
	{"Landscape 1536×1024 — posters, covers", "1536x1024"},
	{"Portrait 1024×1536 — phone wallpapers, character posters", "1024x1536"},
	{"Custom…", ""},
}

const customSizeLabel = "Custom…"

// choice maps a Select's labels to the values the service takes.
type choice struct {
	labels []string
	values []string
}

func (c choice) value(label string) string {
	for i, l := range c.labels {
		if l == label {
			return c.values[i]
		}
	}
	return ""
}

var (
	qualityChoice    = choice{[]string{"Auto", "Low", "Medium", "High"}, []string{"auto", "low", "medium", "high"}}
	backgroundChoice = choice{[]string{"Auto", "Opaque", "Transparent"}, []string{"auto", "opaque", "transparent"}}
	formatChoice     = choice{[]string{"PNG", "JPEG", "WebP"}, []string{"png", "jpeg", "webp"}}
	moderationChoice = choice{[]string{"Auto", "Low"}, []string{"auto", "low"}}
)

// imageOptionsForm holds the controls for every image option the service
// takes; Text to image and Edit each have one.
type imageOptionsForm struct {
	model       *modelPicker
	size        *widget.Select
	customW     *widget.Entry
	customH     *widget.Entry
	customRow   *fyne.Container
	sizeNote    *widget.Label
	quality     *widget.Select
	background  *widget.Select
	bgNote      *widget.Label
	format      *widget.Select
	compression *widget.Slider
	compressRow *fyne.Container
	moderation  *widget.Select
	n           *widget.Select
	stream      *widget.Check
	partials    *widget.Select
	form        *widget.Form
}

func newImageOptionsForm(model *modelPicker, extra ...*widget.FormItem) *imageOptionsForm {
	f := &imageOptionsForm{model: model}

	labels := make([]string, len(sizePresets))
	for i, p := range sizePresets {
		labels[i] = p.label
	}
	f.customW = &widget.Entry{PlaceHolder: "width", OnChanged: func(string) { f.checkCustom() }}
	f.customH = &widget.Entry{PlaceHolder: "height", OnChanged: func(string) { f.checkCustom() }}
	f.sizeNote = hintLabel("")
	f.sizeNote.Hide()
	f.customRow = container.NewVBox(
		container.NewGridWithColumns(3, f.customW, widget.NewLabelWithStyle("×", fyne.TextAlignCenter, fyne.TextStyle{}), f.customH),
		f.sizeNote)
	f.customRow.Hide()
	f.size = widget.NewSelect(labels, func(label string) {
		if label == customSizeLabel {
			f.customRow.Show()
		} else {
			f.customRow.Hide()
		}
	})
	f.size.SetSelected(sizePresets[1].label)

	f.quality = widget.NewSelect(qualityChoice.labels, nil)
	f.quality.SetSelected("Auto")

	f.compression = widget.NewSlider(0, 100)
	f.compression.Step = 1
	f.compression.SetValue(100)
	compLabel := widget.NewLabel("100%")
	f.compression.OnChanged = func(v float64) { compLabel.SetText(strconv.Itoa(int(v)) + "%") }
	f.compressRow = container.NewBorder(nil, nil, nil, compLabel, f.compression)
	f.bgNote = widget.NewLabel("")
	f.bgNote.Wrapping = fyne.TextWrapWord
	f.bgNote.Importance = widget.LowImportance
	f.bgNote.Hide()
	f.format = widget.NewSelect(formatChoice.labels, func(string) { f.syncFormat() })
	f.background = widget.NewSelect(backgroundChoice.labels, func(string) { f.syncBackground() })
	f.background.SetSelected("Auto")
	f.format.SetSelected("PNG")

	f.moderation = widget.NewSelect(moderationChoice.labels, nil)
	f.moderation.SetSelected("Auto")

	counts := make([]string, 10)
	for i := range counts {
		counts[i] = strconv.Itoa(i + 1)
	}
	f.n = widget.NewSelect(counts, nil)
	f.n.SetSelected("1")

	f.partials = widget.NewSelect([]string{"0", "1", "2", "3"}, nil)
	f.partials.SetSelected("2")
	f.stream = widget.NewCheck("Stream with live previews", func(on bool) {
		if on {
			f.partials.Enable()
		} else {
			f.partials.Disable()
		}
	})
	f.stream.SetChecked(true)

	items := append(extra, widget.NewFormItem("Model", f.model.obj))
	f.form = widget.NewForm(append(items,
		widget.NewFormItem("Size", container.NewVBox(f.size, f.customRow)),
		widget.NewFormItem("Quality", f.quality),
		widget.NewFormItem("Background", container.NewVBox(f.background, f.bgNote)),
		widget.NewFormItem("Format", container.NewVBox(f.format, f.compressRow)),
		widget.NewFormItem("Moderation", f.moderation),
		widget.NewFormItem("Images", f.n),
		widget.NewFormItem("Stream", f.stream),
		widget.NewFormItem("Previews", f.partials),
	)...)
	return f
}

// checkCustom validates a custom size as it is typed, with the service's
// rules, and says what to change.
func (f *imageOptionsForm) checkCustom() {
	w, h := strings.TrimSpace(f.customW.Text), strings.TrimSpace(f.customH.Text)
	if w == "" || h == "" {
		f.sizeNote.Hide()
		return
	}
	if err := api.DefaultLimits.CheckSize(w + "x" + h); err != nil {
		f.sizeNote.SetText(errorText(err))
		f.sizeNote.Importance = widget.DangerImportance
	} else {
		f.sizeNote.SetText(fmt.Sprintf("%s × %s is accepted by models that take custom sizes (gpt-image-2).", w, h))
		f.sizeNote.Importance = widget.LowImportance
	}
	f.sizeNote.Show()
	f.sizeNote.Refresh()
}

// setOptions fills the form from saved settings ("reuse settings").
func (f *imageOptionsForm) setOptions(o api.ImageOptions) {
	f.model.entry.SetText(o.Model)
	custom := o.Size != ""
	for _, p := range sizePresets {
		if p.value != "" && p.value == o.Size {
			f.size.SetSelected(p.label)
			custom = false
		}
	}
	if custom {
		if w, h, ok := api.ParseSize(o.Size); ok {
			f.size.SetSelected(customSizeLabel)
			f.customW.SetText(strconv.Itoa(w))
			f.customH.SetText(strconv.Itoa(h))
		}
	}
	selectValue(f.quality, qualityChoice, o.Quality)
	selectValue(f.background, backgroundChoice, o.Background)
	selectValue(f.format, formatChoice, o.OutputFormat)
	selectValue(f.moderation, moderationChoice, o.Moderation)
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

func selectValue(s *widget.Select, c choice, v string) {
	for i, val := range c.values {
		if val == v {
			s.SetSelected(c.labels[i])
		}
	}
}

// syncBackground keeps the format compatible with a transparent
// background and says why it changed it.
func (f *imageOptionsForm) syncBackground() {
	if f.background.Selected != "Transparent" {
		f.bgNote.Hide()
		return
	}
	if f.format.Selected == "JPEG" {
		f.format.SetSelected("PNG")
	}
	f.bgNote.SetText("Transparent backgrounds need PNG or WebP; JPEG has no alpha channel.")
	f.bgNote.Show()
}

// syncFormat shows compression only where the service accepts it, and
// leaves transparency when the user picks JPEG.
func (f *imageOptionsForm) syncFormat() {
	if f.format.Selected == "JPEG" || f.format.Selected == "WebP" {
		f.compressRow.Show()
	} else {
		f.compressRow.Hide()
	}
	if f.format.Selected == "JPEG" && f.background.Selected == "Transparent" {
		f.background.SetSelected("Auto")
	}
}

// options reads the form into the request value the service client takes.
func (f *imageOptionsForm) options() api.ImageOptions {
	o := api.ImageOptions{
		Model:        f.model.text(),
		Quality:      qualityChoice.value(f.quality.Selected),
		Background:   backgroundChoice.value(f.background.Selected),
		OutputFormat: formatChoice.value(f.format.Selected),
		Moderation:   moderationChoice.value(f.moderation.Selected),
		Stream:       f.stream.Checked,
	}
	for _, p := range sizePresets {
		if p.label == f.size.Selected {
			o.Size = p.value
		}
	}
	if f.size.Selected == customSizeLabel {
		o.Size = strings.TrimSpace(f.customW.Text) + "x" + strings.TrimSpace(f.customH.Text)
	}
	if o.OutputFormat == "jpeg" || o.OutputFormat == "webp" {
		c := int(f.compression.Value)
		o.OutputCompression = &c
	}
	o.N, _ = strconv.Atoi(f.n.Selected)
	if o.Stream {
		o.PartialImages, _ = strconv.Atoi(f.partials.Selected)
	}
	return o
}

// applyDefaults sets the options a profile starts its requests from;
// fields the profile leaves empty keep the form's values.
func (f *imageOptionsForm) applyDefaults(model string, d config.ImageDefaults) {
	o := f.options()
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
	f.setOptions(o)
}
