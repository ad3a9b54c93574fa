package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// editTab is the Edit tab: reference images in order and the mask painted
// over the first on the left, the prompt and options on the right.
type editTab struct {
	references *fyne.Container
	maskArea   *fyne.Container
	prompt     *widget.Entry
	fidelity   *widget.Select
	options    *imageOptionsForm
	send       *widget.Button
	status     *widget.Label
}

func (t *editTab) buildUI() fyne.CanvasObject {
	dropHint := widget.NewLabelWithStyle("Drop images here, or add them.\nTheir order matters: the prompt can say “the first”, “the second”.",
		fyne.TextAlignCenter, fyne.TextStyle{})
	border := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	border.StrokeColor = theme.Color(theme.ColorNamePrimary)
	border.StrokeWidth = 2
	border.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	t.references = container.NewStack(border, container.NewCenter(dropHint))
	add := &widget.Button{Text: "Add images…", Icon: theme.FolderOpenIcon()}
	add.Disable()
	refs := container.NewBorder(
		widget.NewLabelWithStyle("Reference images", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewHBox(add), nil, nil, t.references)

	maskBg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	maskBg.SetMinSize(fyne.NewSize(320, 240))
	t.maskArea = container.NewStack(maskBg, container.NewCenter(hintLabel("Paint here over the first image to mark what may change.")))
	brush := widget.NewSlider(4, 256)
	brush.SetValue(48)
	brush.Disable()
	clearMask := &widget.Button{Text: "Clear mask", Icon: theme.ContentClearIcon()}
	clearMask.Disable()
	mask := container.NewBorder(
		widget.NewLabelWithStyle("Mask", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewBorder(nil, nil, widget.NewLabel("Brush"), clearMask, brush), nil, nil, t.maskArea)

	left := container.NewVSplit(refs, mask)
	left.Offset = 0.4

	t.prompt = newPromptEntry("What should change? — Ctrl+Enter sends")
	t.fidelity = widget.NewSelect([]string{"Low", "High"}, nil)
	t.fidelity.SetSelected("Low")
	t.options = newImageOptionsForm("gpt-image-1", widget.NewFormItem("Input fidelity", t.fidelity))
	t.send = &widget.Button{Text: "Send edit", Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: t.primaryAction}
	t.send.Disable()
	t.status = hintLabel("Add at least one image, then connect a service to edit.")
	right := container.NewVScroll(container.NewPadded(container.NewVBox(
		widget.NewLabelWithStyle("Prompt", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.prompt,
		t.options.form,
		container.NewBorder(nil, nil, nil, t.send, t.status),
	)))

	split := container.NewHSplit(left, right)
	split.Offset = 0.5
	return split
}

func (t *editTab) focusTarget() fyne.Focusable { return t.prompt }

func (t *editTab) primaryAction() {}
