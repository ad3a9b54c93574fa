package edit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/ui/kit"
	"easel/ui/widgets/swatch"
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
	strip := container.NewBorder(nil, nil, container.NewVBox(add, expand), container.NewHBox(t.strip.count, container.NewVBox(t.strip.board.button())), t.strip.view)

	t.sides = &sides{}
	t.sides.fold = &widget.Button{Text: catalogue.T("Panel"), Importance: widget.LowImportance, OnTapped: t.sides.toggle}
	// The painter's bar stands beside the canvas, on the panel's side
	// (the canvas keeps its left edge when the panel folds): the tools,
	// the tool's options, and at its foot the zoom and the panel's fold.
	bar := t.mask.options.view(t.sides.fold)
	canvasColumn := container.NewBorder(strip, nil, nil, bar, t.mask.canvas)

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
	t.column = container.NewVSplit(form, below)
	t.column.Offset = formShare
	t.panel = container.NewBorder(nil, t.ActionRow(), nil, nil, t.column)
	return t.sides.build(canvasColumn, t.panel, bar)
}

// editsShare is the least share of the panel's column the edits get once
// one is sent: a finished kept edit's card, with its notes and actions,
// was cut to 140 units under the form at 1280x800 (#57).
const editsShare = 0.6

// formShare is the form's share of the column before an edit is sent.
const formShare = 0.66

// Folded reports whether the side panel is folded away.
func (t *Room) Folded() bool { return t.sides.folded }

// SaveLayout remembers where the panel's divider is, for the next run;
// the window calls it as it closes (a Split says nothing as it moves).
func (t *Room) SaveLayout(p fyne.Preferences) {
	if t.sides != nil && t.sides.split != nil {
		p.SetFloat(prefPanelOffset, t.sides.split.Offset)
	}
}

// compactWindow is the window below which Edit is laid out for a small
// screen: the side panel becomes a drawer over the canvas. At 2x on a
// 1080p screen (944x500 units) the panel's options were a 30-unit
// scroll slot and the canvas a sliver (#57).
var compactWindow = fyne.NewSize(1024, 700)

// sides is how the tab shares its width between the canvas's column and
// the side panel: side by side with a divider the designer moves; the
// panel folded away; or, in a window smaller than compactWindow, the
// canvas alone with the panel a drawer over its right side, opened and
// closed by the fold. It owns the fold, the split and which of these
// holds.
type sides struct {
	canvas, panel fyne.CanvasObject
	split         *container.Split
	body          *fyne.Container
	fold          *widget.Button
	// drawer holds the panel over the canvas, on a background.
	drawer *fyne.Container
	// folded is the designer's fold (remembered); compact is the
	// window's size; open is whether the drawer is out.
	folded, compact, open bool
}

// build lays canvas and panel out and returns the tab's body; the
// drawer opens left of bar, whose fold closes it again.
func (s *sides) build(canvas, panel, bar fyne.CanvasObject) fyne.CanvasObject {
	s.canvas, s.panel = canvas, panel
	prefs := fyne.CurrentApp().Preferences()
	s.split = container.NewHSplit(canvas, panel)
	s.split.Offset = prefs.FloatWithFallback(prefPanelOffset, defaultPanelOffset)
	if s.split.Offset < 0.3 || s.split.Offset > 0.95 {
		s.split.Offset = defaultPanelOffset
	}
	s.drawer = container.New(drawerLayout{bar: bar}, swatch.New(theme.ColorNameBackground), panel)
	s.body = container.New(s, s.split)
	s.folded = prefs.Bool(prefPanelFolded)
	s.arrange()
	return s.body
}

// toggle is the fold's tap: the drawer in a small window, else the fold.
func (s *sides) toggle() {
	if s.compact {
		s.open = !s.open
	} else {
		s.folded = !s.folded
		fyne.CurrentApp().Preferences().SetBool(prefPanelFolded, s.folded)
	}
	s.arrange()
	s.body.Refresh()
}

// arrange puts what the state calls for in the body.
func (s *sides) arrange() {
	shown := !s.folded
	switch {
	case s.compact:
		s.body.Objects = []fyne.CanvasObject{s.canvas}
		if s.open {
			s.body.Objects = append(s.body.Objects, s.drawer)
		}
		shown = s.open
	case s.folded:
		s.body.Objects = []fyne.CanvasObject{s.canvas}
	default:
		s.body.Objects = []fyne.CanvasObject{s.split}
	}
	if shown {
		s.fold.SetIcon(theme.NavigateNextIcon())
	} else {
		s.fold.SetIcon(theme.NavigateBackIcon())
	}
}

// Layout implements fyne.Layout for the body: it follows the window's
// size into and out of the compact arrangement, then gives its objects
// the whole body (the drawer lays itself out on the right).
func (s *sides) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(s.body); c != nil {
		win := c.Size()
		if compact := win.Width < compactWindow.Width || win.Height < compactWindow.Height; compact != s.compact {
			s.compact, s.open = compact, false
			s.arrange()
			objs = s.body.Objects
		}
	}
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

// MinSize implements fyne.Layout: the largest of what the body shows
// (the split, or the canvas's column with the drawer over it).
func (s *sides) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}

// drawerLayout puts its objects (a background, the panel) at the right
// of its area, left of the painter's bar (whose fold closes it), as wide
// as the panel asks and at least 320 units, at most 85 % of what is
// left, and as tall as the area.
type drawerLayout struct{ bar fyne.CanvasObject }

func (d drawerLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	right := size.Width - d.bar.Size().Width - theme.Padding()
	w := right * 0.85
	for _, o := range objs {
		w = min(w, max(320, o.MinSize().Width))
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(right-w, 0))
		o.Resize(fyne.NewSize(w, size.Height))
	}
}

func (drawerLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.Size{} }

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
