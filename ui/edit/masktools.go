package edit

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/markup"
	"easel/internal/mask"
	"easel/internal/wording"
	"easel/internal/work"
	"easel/ui/dialogs"
	"easel/ui/kit"
	"easel/ui/widgets/maskpaint"
	"easel/ui/widgets/swatch"
)

// maskTools is Edit's mask area: the painter over the first input, the
// brush's controls, and what share of the image may change.
type maskTools struct {
	host dialogs.FileHost
	// canvas is the painter's area; options is the bar beside it, with
	// the tools and what the one chosen takes (tooloptions.go).
	canvas   *fyne.Container
	options  *toolOptions
	painter  *maskpaint.Painter
	empty    *fyne.Container
	tool     *widget.Select
	eraser   *widget.Check
	size     *widget.Slider
	hardness *widget.Slider
	undo     *iconbutton.Button
	redo     *iconbutton.Button
	coverage *widget.Label
	// undoMark, clearMarks and marksNote are the marks' part of the
	// panel: what the marks will do with the model chosen.
	undoMark   *widget.Button
	clearMarks *widget.Button
	marksNote  *widget.Label
	// model reads the model the edit goes to, for marksNote.
	model    func() string
	opacity  *widget.Slider
	tintShow *widget.Check
	zoom     *widget.Label
	zoomRow  *fyne.Container
	// onChanged is told when the mask may have changed.
	onChanged func()
	// showing is the first input the painter shows (or waits for).
	showing *Input
	// masks keeps each input's mask by the input's identity, so a mask
	// stays with its image when the inputs are reordered.
	masks map[inputKey]*mask.Mask
	// pendingMarks are a restored session's marks, drawn on the first
	// image once the painter shows it (a new image starts without).
	pendingMarks *markup.Marks
}

// inputKey is an input's identity: its bytes in memory, or the file it
// is read from.
type inputKey struct {
	data *byte
	path string
}

// key is in's identity; the zero key for none.
func key(in *Input) inputKey {
	switch {
	case in == nil:
		return inputKey{}
	case len(in.Image.Data) > 0:
		return inputKey{data: &in.Image.Data[0]}
	}
	return inputKey{path: in.Image.Path}
}

// keep forgets the masks of inputs no longer there.
func (m *maskTools) keep(inputs []Input) {
	live := map[inputKey]bool{}
	for i := range inputs {
		live[key(&inputs[i])] = true
	}
	for k := range m.masks {
		if !live[k] {
			delete(m.masks, k)
		}
	}
}

// toolNames are the painter's tools in maskpaint.Tool's order: three
// paint the mask, four draw marks.
func toolNames() []string {
	return []string{catalogue.T("Brush"), catalogue.T("Rectangle"), catalogue.T("Lasso"),
		catalogue.T("Mark: pen"), catalogue.T("Mark: arrow"), catalogue.T("Mark: circle"), catalogue.T("Mark: note")}
}

func newMaskTools(h dialogs.FileHost) *maskTools {
	m := &maskTools{host: h, painter: maskpaint.New(fyne.NewSize(200, 100)), masks: map[inputKey]*mask.Mask{}}
	m.painter.Hide()
	names := toolNames()
	// A drop-down, not a column of seven radio buttons: the bar beside
	// the canvas is narrow and holds the tool's options under it.
	m.tool = widget.NewSelect(names, func(s string) {
		for i, n := range names {
			if n == s {
				m.painter.Tool = maskpaint.Tool(i)
			}
		}
		if m.options != nil {
			m.options.follow(m.painter.Tool)
		}
	})
	m.tool.SetSelected(names[0])
	m.eraser = widget.NewCheck(catalogue.T("Eraser (E)"), func(on bool) { m.painter.Erase = on })
	m.size = widget.NewSlider(1, 300)
	m.size.SetValue(m.painter.Radius)
	m.size.OnChanged = func(v float64) { m.painter.Radius = v; m.options.sync(v, m.painter.Hardness) }
	m.hardness = widget.NewSlider(0, 1)
	m.hardness.Step = 0.05
	m.hardness.SetValue(m.painter.Hardness)
	m.hardness.OnChanged = func(v float64) { m.painter.Hardness = v; m.options.sync(m.painter.Radius, v) }
	m.undo = iconbutton.New(catalogue.T("Undo the last stroke"), theme.ContentUndoIcon(), m.doing((*mask.Mask).Undo))
	m.redo = iconbutton.New(catalogue.T("Redo the stroke"), theme.ContentRedoIcon(), m.doing((*mask.Mask).Redo))
	m.undoMark = &widget.Button{Text: catalogue.T("Undo mark"), Icon: theme.ContentUndoIcon(), OnTapped: m.painter.Marks.Undo}
	m.clearMarks = &widget.Button{Text: catalogue.T("Clear marks"), OnTapped: m.painter.Marks.Clear}
	m.marksNote = kit.HintLabel("")
	m.painter.OnNote = m.askNote
	m.coverage = kit.HintLabel("")
	m.opacity = widget.NewSlider(0.1, 1)
	m.opacity.Step = 0.05
	m.opacity.SetValue(m.painter.Opacity())
	m.opacity.OnChanged = m.painter.SetOpacity
	m.tintShow = widget.NewCheck(catalogue.T("Show (H)"), func(on bool) { m.painter.SetTintHidden(!on) })
	m.tintShow.Checked = true
	m.zoom = widget.NewLabel("")
	zoomOut := iconbutton.New(catalogue.T("Zoom out"), theme.ZoomOutIcon(), m.painter.Zoom().ZoomOut)
	zoomIn := iconbutton.New(catalogue.T("Zoom in"), theme.ZoomInIcon(), m.painter.Zoom().ZoomIn)
	fit := iconbutton.New(catalogue.T("Fit the picture in view"), theme.ZoomFitIcon(), m.painter.Zoom().Fit)
	actual := &widget.Button{Text: "100 %", OnTapped: m.painter.Zoom().Actual}
	m.painter.OnChanged = m.sync

	// The zoom, in two rows at the foot of the bar beside the canvas.
	m.zoomRow = container.NewVBox(container.NewHBox(zoomOut, m.zoom, zoomIn), container.NewHBox(fit, actual))
	bg := swatch.New(theme.ColorNameInputBackground)
	// A wrapping label must not sit in a Center container: it would
	// shrink to one character per line.
	m.empty = container.NewPadded(kit.HintLabel(catalogue.T("Add an image: the mask is painted on the first one, over what may change. Without a mask, the whole image may change.")))
	m.canvas = container.NewStack(bg, m.empty, m.painter)
	m.options = newToolOptions(m)
	m.sync()
	return m
}

// doing is a button's action that does f to the mask shown, with undo.
func (m *maskTools) doing(f func(*mask.Mask)) func() { return func() { m.painter.Do(f) } }

// differs reports whether in is not the input the painter shows.
func (m *maskTools) differs(in *Input) bool {
	if in == nil || m.showing == nil {
		return (in == nil) != (m.showing == nil)
	}
	return in.Image.Name != m.showing.Image.Name || key(in) != key(m.showing)
}

// expect notes the input the painter is about to show.
func (m *maskTools) expect(in *Input) {
	if in == nil {
		m.showing = nil
		return
	}
	c := *in
	m.showing = &c
}

// show puts img (of in) in the painter with a new mask, unless another
// first input has been chosen since.
func (m *maskTools) show(in *Input, pr *maskpaint.Prepared) {
	if m.differs(in) {
		return
	}
	m.painter.SetPrepared(pr)
	if k := key(in); k != (inputKey{}) && pr.Mask() != nil {
		m.masks[k] = pr.Mask()
	}
	if m.pendingMarks != nil && pr.Mask() != nil {
		m.painter.Marks.Set(*m.pendingMarks)
		m.pendingMarks = nil
	}
	shown := pr.Mask() != nil
	m.painter.Hidden = !shown
	m.empty.Hidden = shown
	m.canvas.Refresh()
	m.sync()
}

// sync shows the brush and the mask's state in the controls.
func (m *maskTools) sync() {
	if m.onChanged != nil {
		defer m.onChanged()
	}
	m.eraser.Checked = m.painter.Erase
	m.eraser.Refresh()
	if m.size.Value != m.painter.Radius {
		m.size.Value = m.painter.Radius
		m.size.Refresh()
	}
	if m.options != nil { // nil while the bar is built
		m.options.sync(m.painter.Radius, m.painter.Hardness)
	}
	if m.tintShow.Checked == m.painter.TintHidden() {
		m.tintShow.Checked = !m.painter.TintHidden()
		m.tintShow.Refresh()
	}
	m.syncMarks()
	mk := m.painter.Mask()
	m.zoomRow.Hidden = mk == nil // no image: nothing to zoom
	if mk == nil {
		m.zoom.SetText("")
		m.coverage.SetText("")
		m.undo.Disable()
		m.redo.Disable()
		return
	}
	m.zoom.SetText(catalogue.F("%.0f %%", m.painter.Zoom().Percent()))
	setEnabled(&m.undo.Button, mk.CanUndo())
	setEnabled(&m.redo.Button, mk.CanRedo())
	if p := mk.Painted(); p == 0 {
		m.coverage.SetText(catalogue.T("Nothing painted: the whole image may change."))
	} else {
		m.coverage.SetText(catalogue.F("%.0f %% of the first image may change; the rest is kept.", 100*p))
	}
}

// syncMarks says what the marks will do with the model chosen.
func (m *maskTools) syncMarks() {
	marks := m.painter.Marks.All()
	setEnabled(m.undoMark, !marks.Empty())
	setEnabled(m.clearMarks, !marks.Empty())
	model := ""
	if m.model != nil {
		model = m.model()
	}
	switch s, ok := capability.Lookup(model); {
	case marks.Empty():
		m.marksNote.SetText(catalogue.T("Draw with a mark tool to show the model what to change: arrows, circles, strokes and short notes over the first image."))
	case ok && s.Markup:
		m.marksNote.SetText(catalogue.N("%d mark goes to %s as markup, beside the first image.", len(marks.Items), len(marks.Items), model))
	default:
		m.marksNote.SetText(catalogue.N("%[1]d mark is drawn onto the first image sent, and the prompt asks %[2]s to follow it (it takes no markup); the unmasked area is kept from your image, without the marks.", len(marks.Items), len(marks.Items), model))
	}
}

// askNote asks for a note's words and puts it at at.
func (m *maskTools) askNote(at [2]float64) {
	words := &widget.Entry{PlaceHolder: catalogue.T("e.g. make this a window")}
	words.Validator = func(s string) error {
		if len([]rune(s)) > markup.MaxNote {
			return errors.New(catalogue.F("at most %d characters", markup.MaxNote))
		}
		return nil
	}
	d := dialog.NewForm(catalogue.T("A note on the image"), catalogue.T("Add"), catalogue.T("Cancel"),
		[]*widget.FormItem{widget.NewFormItem(catalogue.T("Note"), words)}, func(ok bool) {
			if ok {
				m.painter.Marks.AddNote(at, strings.TrimSpace(words.Text))
			}
		}, m.host.Window())
	words.OnSubmitted = func(string) { d.Submit() } // Enter places the note
	d.Resize(fyne.NewSize(420, 160))
	d.Show()
	m.host.Window().Canvas().Focus(words)
}

// setEnabled enables or disables b; a button already so is left alone
// (Enable and Disable refresh it even then).
func setEnabled(b *widget.Button, on bool) {
	switch {
	case on && b.Disabled():
		b.Enable()
	case !on && !b.Disabled():
		b.Disable()
	}
}

// painted reports whether a mask is painted on the first input, from
// the mask's own count: it is asked after every stroke.
func (m *maskTools) painted() bool {
	mk := m.painter.Mask()
	return mk != nil && mk.IsPainted()
}

// maskPNG is the painted mask as the service takes it, nil when nothing
// is painted. An error must stop the send: an edit sent without the mask
// the user painted would change the whole image, and be paid for.
func (m *maskTools) maskPNG() (*api.InputImage, error) {
	if !m.painted() {
		return nil, nil
	}
	data, err := m.painter.Mask().PNG()
	if err != nil {
		return nil, err
	}
	return &api.InputImage{Name: "mask.png", ContentType: "image/png", Data: data}, nil
}

// importMask reads a mask from a PNG (transparent, or white, where the
// image may change) for the first image, off the UI goroutine; it must
// be that image's size.
func (m *maskTools) importMask() {
	first := m.showing
	if first == nil || m.painter.Mask() == nil {
		dialog.ShowInformation(catalogue.T("No image to mask"), catalogue.T("Add an image first: the mask is painted on the first one."), m.host.Window())
		return
	}
	dialogs.PickImage(m.host, catalogue.T("Import a mask"), catalogue.T("Import"), func(path string) {
		name := filepath.Base(path)
		work.Load(m.host.Work(), func(ctx context.Context) (image.Image, error) { return decodeMaskFile(path) }, func(img image.Image, err error) {
			if err == nil {
				err = m.useMask(first, img, name)
			}
			if err != nil {
				dialog.ShowError(fmt.Errorf("%s: %w", name, err), m.host.Window())
			}
		})
	})
}

// decodeMaskFile reads a mask image, bounded as every image read is.
func decodeMaskFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, wording.PathCause(err)
	}
	defer f.Close()
	return imageio.DecodeBounded(io.LimitReader(f, imageio.MaxReadBytes), imageio.MaxPixels)
}

// useMask makes img (named name) the mask of first, which must still be
// the image shown and be img's size.
func (m *maskTools) useMask(first *Input, img image.Image, name string) error {
	if m.differs(first) || m.painter.Mask() == nil {
		return errors.New(catalogue.T("the first image changed meanwhile: import the mask again"))
	}
	want := m.painter.Mask().Bounds().Size()
	if img.Bounds().Size() != want {
		return fmt.Errorf(catalogue.T("the mask is %dx%d but the first image is %dx%d: it must be that size"), img.Bounds().Dx(), img.Bounds().Dy(), want.X, want.Y)
	}
	imported := mask.FromImage(img)
	m.masks[key(first)] = imported
	m.show(first, maskpaint.Prepare(m.painter.Image(), imported))
	return nil
}

// exportMask saves the mask as the PNG the service gets.
func (m *maskTools) exportMask() {
	mk := m.painter.Mask()
	if mk == nil || m.showing == nil {
		dialog.ShowInformation(catalogue.T("No mask yet"), catalogue.T("Add an image and paint over what may change first."), m.host.Window())
		return
	}
	data, err := mk.PNG()
	if err != nil {
		dialog.ShowError(err, m.host.Window())
		return
	}
	name := strings.TrimSuffix(m.showing.Image.Name, filepath.Ext(m.showing.Image.Name)) + "-mask.png"
	dialogs.SaveAs(m.host, api.Image{Data: data, Format: "png"}, name, nil)
}
