package edit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/ui/kit"
)

// strip is the row of numbered input tiles above the canvas: it draws
// them, and moves or removes one when its buttons, grip or keys say.

// Edit's layout puts the canvas first: painting the mask is what the tab
// is for. The inputs are a strip of numbered tiles above the canvas, the
// painter's tools one row between them, and everything else (the prompt,
// the options, the brush, the edits and Send edit) a side panel that
// folds away. Where the panel's divider sits and whether it is folded
// are remembered between runs.

// Preference keys for Edit's layout.
const (
	prefPanelOffset = "edit.panelOffset"
	prefPanelFolded = "edit.panelFolded"
)

// defaultPanelOffset is the canvas's share of the tab's width: at
// 1280x800 the canvas takes over half of the window's area, and the
// panel's ~320 units hold the form.
const defaultPanelOffset = 0.8

// tileWidth is the width of one input's tile in the strip.
const tileWidth = 320

// layOut builds the tab: the strip and the canvas, beside the panel.
func (t *Room) layOut() fyne.CanvasObject {
	add := &widget.Button{Text: catalogue.T("Add images…"), Icon: theme.FolderOpenIcon(), OnTapped: t.addFromFile}
	expand := &widget.Button{Text: catalogue.T("Expand canvas…"), Icon: theme.ViewFullScreenIcon(), OnTapped: t.ExpandCanvas}
	t.strip.board = &refBoard{strip: t.strip, win: t.host.Window()}
	strip := container.NewBorder(nil, nil, container.NewVBox(add, expand), container.NewVBox(t.strip.count, t.strip.board.button()), t.strip.view)

	t.fold = &widget.Button{Importance: widget.LowImportance, OnTapped: func() { t.setFolded(!t.folded) }}
	// The painter's bar stands beside the canvas, on the panel's side
	// (the canvas keeps its left edge when the panel folds): the tools,
	// the tool's options, and at its foot the zoom and the panel's fold.
	canvasColumn := container.NewBorder(strip, nil, nil, t.mask.options.view(t.fold), t.mask.canvas)

	// The panel's form scrolls above, the edits below it, each in its
	// own part of the column, and Send edit stays in sight under both at
	// any window size.
	// Compare… sits beside the heading, where it moves nothing of the
	// form below.
	compare := &widget.Button{Text: catalogue.T("Compare…"), Icon: theme.ViewRestoreIcon(), Importance: widget.LowImportance, OnTapped: sending{t}.compare}
	heading := container.NewBorder(nil, nil, kit.Heading(catalogue.T("Prompt")), compare)
	// Labels above their fields: the panel is a narrow column beside the
	// painter's bar, and the canvas keeps half the window at 1280x800.
	t.Options().Form.Orientation = widget.Vertical
	form := container.NewVScroll(container.NewPadded(container.NewVBox(heading, t.prompt, t.Options().Form)))
	// The edits and the first image's thread share the column's lower
	// part: the thread shows when the first image has one, the edits
	// when an edit is sent.
	below := t.thread.tabs(container.NewVScroll(t.jobs.Box))
	column := container.NewVSplit(form, below)
	column.Offset = 0.66
	t.panel = container.NewBorder(nil, t.ActionRow(), nil, nil, column)

	prefs := fyne.CurrentApp().Preferences()
	t.split = container.NewHSplit(canvasColumn, t.panel)
	t.split.Offset = prefs.FloatWithFallback(prefPanelOffset, defaultPanelOffset)
	if t.split.Offset < 0.3 || t.split.Offset > 0.95 {
		t.split.Offset = defaultPanelOffset
	}
	t.body = container.NewStack(t.split)
	t.setFolded(prefs.Bool(prefPanelFolded))
	return t.body
}

// setFolded hides the side panel (the canvas takes the whole tab) or
// shows it again, and remembers which.
func (t *Room) setFolded(folded bool) {
	t.folded = folded
	canvasColumn := t.split.Leading
	if folded {
		t.body.Objects = []fyne.CanvasObject{canvasColumn}
		t.fold.SetText(catalogue.T("Panel"))
		t.fold.SetIcon(theme.NavigateBackIcon())
	} else {
		t.split.Leading = canvasColumn
		t.body.Objects = []fyne.CanvasObject{t.split}
		t.fold.SetText(catalogue.T("Panel"))
		t.fold.SetIcon(theme.NavigateNextIcon())
	}
	t.body.Refresh()
	fyne.CurrentApp().Preferences().SetBool(prefPanelFolded, folded)
}

// Folded reports whether the side panel is folded away.
func (t *Room) Folded() bool { return t.folded }

// SaveLayout remembers where the panel's divider is, for the next run;
// the window calls it as it closes (a Split says nothing as it moves).
func (t *Room) SaveLayout(p fyne.Preferences) {
	if t.split != nil {
		p.SetFloat(prefPanelOffset, t.split.Offset)
	}
}

// inputTile is one input in the strip: its thumbnail, its number and
// name, its size, and buttons to move it along or remove it; mark is the

// fixedWidth lays its objects out at a set width and their own height,
// so a tile in the strip neither stretches nor squeezes its buttons.
type fixedWidth float32

// Layout implements fyne.Layout.
func (w fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.Position{})
	}
}

// MinSize implements fyne.Layout.
func (w fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(float32(w), h)
}
