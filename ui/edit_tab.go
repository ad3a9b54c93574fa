package ui

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/jobs"
)

// editRef is one reference image, in the order the prompt refers to them.
type editRef struct {
	image api.InputImage
	// item is the gallery item it came from, 0 for a file.
	item int64
}

// editTab is the Edit tab: reference images in order and the mask painted
// over the first on the left, the prompt and options on the right.
type editTab struct {
	app        *App
	refs       []editRef
	refList    *fyne.Container
	references *fyne.Container
	maskArea   *fyne.Container
	prompt     *widget.Entry
	fidelity   *widget.Select
	options    *imageOptionsForm
	send       *widget.Button
	status     *widget.Label
	jobs       *jobList
}

func (t *editTab) buildUI() fyne.CanvasObject {
	dropHint := widget.NewLabelWithStyle("Add images, or send them here from the Gallery.\nTheir order matters: the prompt can say “the first”, “the second”.",
		fyne.TextAlignCenter, fyne.TextStyle{})
	border := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	border.StrokeColor = theme.Color(theme.ColorNamePrimary)
	border.StrokeWidth = 2
	border.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	t.refList = container.NewVBox()
	t.references = container.NewStack(border, container.NewCenter(dropHint), container.NewVScroll(t.refList))
	add := &widget.Button{Text: "Add images…", Icon: theme.FolderOpenIcon(), OnTapped: t.addFromFile}
	refs := container.NewBorder(
		widget.NewLabelWithStyle("Reference images", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewHBox(add), nil, nil, t.references)

	maskBg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	maskBg.SetMinSize(fyne.NewSize(320, 200))
	// A wrapping label must not sit in a Center container: it would shrink
	// to one character per line.
	t.maskArea = container.NewStack(maskBg, container.NewPadded(hintLabel("Painting a mask over the first image comes with the mask painter; without one, the whole image may change.")))
	brush := widget.NewSlider(4, 256)
	brush.SetValue(48)
	brush.Disable()
	clearMask := &widget.Button{Text: "Clear mask", Icon: theme.ContentClearIcon()}
	clearMask.Disable()
	mask := container.NewBorder(
		widget.NewLabelWithStyle("Mask", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewBorder(nil, nil, widget.NewLabel("Brush"), clearMask, brush), nil, nil, t.maskArea)

	left := container.NewVSplit(refs, mask)
	left.Offset = 0.55

	t.prompt = newPromptEntry("What should change? — Ctrl+Enter sends")
	t.fidelity = widget.NewSelect([]string{"Low", "High"}, nil)
	t.fidelity.SetSelected("Low")
	t.options = newImageOptionsForm(t.app.newModelPicker(api.EndpointImages, "Image model, e.g. gpt-image-1", "gpt-image-1"), widget.NewFormItem("Input fidelity", t.fidelity))
	t.options.applyDefaults(t.app.acct.current.ImageModel, t.app.acct.current.Image)
	t.send = &widget.Button{Text: "Send edit", Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: t.primaryAction}
	t.status = hintLabel("")
	if t.app.acct.client == nil || t.app.svc.runner == nil {
		t.send.Disable()
	}
	t.status.SetText(t.app.serviceText())
	t.jobs = newJobList(t.app, "Edits appear here while they run; results go to the Gallery.")
	right := container.NewVScroll(container.NewPadded(container.NewVBox(
		widget.NewLabelWithStyle("Prompt", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.prompt,
		t.options.form,
		container.NewBorder(nil, nil, nil, t.send, t.status),
		widget.NewSeparator(),
		t.jobs.box,
	)))

	split := container.NewHSplit(left, right)
	split.Offset = 0.45
	t.showRefs()
	return split
}

func (t *editTab) focusTarget() fyne.Focusable { return t.prompt }

// add appends a reference image; its place in the list is its number in
// the prompt.
func (t *editTab) add(ref editRef) {
	t.refs = append(t.refs, ref)
	t.showRefs()
}

// showRefs redraws the numbered list with move and remove controls.
func (t *editTab) showRefs() {
	if t.refList == nil {
		return
	}
	t.refList.Objects = nil
	for i, r := range t.refs {
		i := i
		label := widget.NewLabel(fmt.Sprintf("%d. %s", i+1, r.image.Name))
		up := &widget.Button{Icon: theme.MoveUpIcon(), OnTapped: func() { t.move(i, -1) }}
		down := &widget.Button{Icon: theme.MoveDownIcon(), OnTapped: func() { t.move(i, 1) }}
		remove := &widget.Button{Icon: theme.DeleteIcon(), OnTapped: func() { t.remove(i) }}
		if i == 0 {
			up.Disable()
		}
		if i == len(t.refs)-1 {
			down.Disable()
		}
		t.refList.Objects = append(t.refList.Objects, container.NewBorder(nil, nil, nil, container.NewHBox(up, down, remove), label))
	}
	// The hint shows only while the list is empty.
	t.references.Objects[1].(*fyne.Container).Hidden = len(t.refs) > 0
	t.references.Refresh()
}

func (t *editTab) move(i, by int) {
	j := i + by
	if j < 0 || j >= len(t.refs) {
		return
	}
	t.refs[i], t.refs[j] = t.refs[j], t.refs[i]
	t.showRefs()
}

func (t *editTab) remove(i int) {
	t.refs = append(t.refs[:i], t.refs[i+1:]...)
	t.showRefs()
}

func (t *editTab) addFromFile() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		defer r.Close()
		data, err := io.ReadAll(io.LimitReader(r, 64<<20))
		if err != nil {
			dialog.ShowError(fmt.Errorf("cannot read %s: %w", r.URI().Name(), err), t.app.win)
			return
		}
		t.add(editRef{image: api.InputImage{Name: r.URI().Name(), ContentType: http.DetectContentType(data), Data: data}})
	}, t.app.win)
	d.Show()
}

// primaryAction checks the edit and submits it as a job.
func (t *editTab) primaryAction() {
	if t.app.acct.client == nil || t.app.svc.runner == nil {
		t.status.SetText(t.app.serviceText())
		return
	}
	req := api.EditRequest{Prompt: t.prompt.Text, ImageOptions: t.options.options(), InputFidelity: strings.ToLower(t.fidelity.Selected)}
	var parents []int64
	for _, r := range t.refs {
		req.Images = append(req.Images, r.image)
		if r.item != 0 {
			parents = append(parents, r.item)
		}
	}
	if err := req.Check(t.app.acct.client.Limits()); err != nil {
		t.status.SetText(errorText(err))
		return
	}
	t.status.SetText("")
	t.app.submitImageJob(t.options.model, &req.ImageOptions, jobs.Request{Edit: &req, Parents: parents}, t.status)
}
