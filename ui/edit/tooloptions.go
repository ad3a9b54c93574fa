package edit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/markup"
	"easel/internal/mask"
	"easel/ui/kit"
	"easel/ui/widgets/maskpaint"
)

// The painter's bar stands beside the canvas: the tools, and under them
// what the tool chosen takes, as Krita's tool options do — the brush's
// size and hardness; the mask's tint and its actions for the three mask
// tools; the marks' colour and their actions for the four mark tools.
// They were at the foot of the side panel, below every option of the
// request, 25 wheel notches from the canvas at 1280x800 (#57). The
// tools' row that was above the canvas is in the bar too: the bar's
// width is taken from the canvas, and the row's height given back keeps
// the canvas at half the window.

// toolOptionsWidth is the bar's width: a tool's name in the drop-down,
// a slider long enough to set a size by hand.
const toolOptionsWidth = 150

// prefMarkColour remembers the marks' colour between runs.
const prefMarkColour = "edit.markColour"

// markColour is a colour the marks may be drawn in. Each is far from the
// mask's pink tint, so what may change and what is pointed at never
// look alike; blue first, since few photographs are full of it.
type markColour struct {
	name   string
	colour color.NRGBA
}

func markColours() []markColour {
	return []markColour{
		{catalogue.T("Blue"), markup.Bright},
		{catalogue.T("Yellow"), color.NRGBA{R: 0xff, G: 0xd6, B: 0x0a, A: 0xff}},
		{catalogue.T("Green"), color.NRGBA{R: 0x30, G: 0xe0, B: 0x40, A: 0xff}},
		{catalogue.T("White"), color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}},
		{catalogue.T("Black"), color.NRGBA{R: 0x10, G: 0x10, B: 0x10, A: 0xff}},
	}
}

// toolOptions is the bar: a part for each kind of tool, shown while one
// of its tools is chosen.
type toolOptions struct {
	box *fyne.Container
	// brush, maskPart and marksPart are shown by follow; zoom is the
	// painter's zoom row.
	brush, maskPart, marksPart *fyne.Container
	zoom                       fyne.CanvasObject
	sizeValue, hardnessValue   *widget.Label
	colour                     *widget.Select
}

// newToolOptions builds the bar from m's controls.
func newToolOptions(m *maskTools) *toolOptions {
	o := &toolOptions{zoom: m.zoomRow, sizeValue: widget.NewLabel(""), hardnessValue: widget.NewLabel("")}
	invert := &widget.Button{Text: catalogue.T("Invert"), OnTapped: m.doing((*mask.Mask).Invert)}
	clear := &widget.Button{Text: catalogue.T("Clear"), OnTapped: m.doing((*mask.Mask).Clear)}
	fill := &widget.Button{Text: catalogue.T("Fill"), OnTapped: m.doing((*mask.Mask).Fill)}
	importMask := &widget.Button{Text: catalogue.T("Import…"), Icon: theme.FolderOpenIcon(), OnTapped: m.importMask}
	exportMask := &widget.Button{Text: catalogue.T("Export…"), Icon: theme.DocumentSaveIcon(), OnTapped: m.exportMask}

	labelled := func(label string, value fyne.CanvasObject, w fyne.CanvasObject) fyne.CanvasObject {
		return container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel(label), value), w)
	}
	o.brush = container.NewVBox(
		labelled(catalogue.T("Size ([ ])"), o.sizeValue, m.size),
		labelled(catalogue.T("Hardness"), o.hardnessValue, m.hardness))
	o.maskPart = container.NewVBox(
		widget.NewSeparator(),
		kit.Heading(catalogue.T("Mask")),
		m.coverage,
		labelled(catalogue.T("Tint"), m.tintShow, m.opacity),
		container.NewGridWithColumns(2, invert, clear), fill,
		importMask, exportMask)

	colours := markColours()
	names := make([]string, len(colours))
	for i, c := range colours {
		names[i] = c.name
	}
	o.colour = widget.NewSelect(names, func(name string) {
		for i, c := range colours {
			if c.name == name {
				m.painter.Marks.SetColour(c.colour)
				fyne.CurrentApp().Preferences().SetInt(prefMarkColour, i)
			}
		}
	})
	chosen := fyne.CurrentApp().Preferences().IntWithFallback(prefMarkColour, 0)
	if chosen < 0 || chosen >= len(colours) {
		chosen = 0
	}
	o.colour.SetSelected(names[chosen])
	o.marksPart = container.NewVBox(
		labelled(catalogue.T("Colour"), layout.NewSpacer(), o.colour),
		m.marksNote,
		m.undoMark, m.clearMarks)

	tools := container.NewVBox(m.tool, m.eraser, container.NewHBox(m.undo, m.redo), widget.NewSeparator())
	o.box = container.NewVBox(tools, o.brush, o.maskPart, o.marksPart)
	o.follow(m.painter.Tool)
	return o
}

// view is the bar as the canvas's column lays it out: its width set, its
// tools and options scrolled where the window is short, the zoom and
// fold (the panel's) always at its foot.
func (o *toolOptions) view(fold fyne.CanvasObject) fyne.CanvasObject {
	options := container.NewVScroll(container.New(fixedWidth(toolOptionsWidth), container.NewPadded(o.box)))
	return container.NewBorder(nil, container.NewPadded(container.NewVBox(o.zoom, fold)), nil, nil, options)
}

// follow shows the parts of the bar that tool takes.
func (o *toolOptions) follow(tool maskpaint.Tool) {
	marking := tool >= maskpaint.MarkPen
	o.brush.Hidden = tool != maskpaint.Brush
	o.maskPart.Hidden = marking
	o.marksPart.Hidden = !marking
	o.box.Refresh()
}

// sync shows the brush's size and hardness as numbers beside their
// sliders.
func (o *toolOptions) sync(radius, hardness float64) {
	kit.SetText(o.sizeValue, catalogue.F("%.0f px", 2*radius))
	kit.SetText(o.hardnessValue, catalogue.F("%.0f %%", 100*hardness))
}
