package edit

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"path/filepath"
	"strconv"
	"strings"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	xdraw "golang.org/x/image/draw"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/mask"
	"easel/internal/outpaint"
	"easel/internal/work"
	"easel/ui/kit"
	"easel/ui/widgets/picture"
)

// grows are the extra room a shape's canvas may get, beyond the least
// that holds the picture.
var grows = []float64{0, 0.25, 0.5, 1}

// expander is "Expand canvas…": it asks for the new canvas (a named
// shape, or pixels on each side) and where the picture sits on it, shows
// the result in small, and makes the first input that canvas with the
// new area masked, so the edit paints only there and the picture comes
// back exact.
type expander struct {
	room    *Room
	first   Input
	src     image.Image
	model   string
	shape   *widget.Select
	grow    *widget.Select
	margins [4]*widget.Entry // left, top, right, bottom
	byPx    *fyne.Container
	anchor  outpaint.Anchor
	anchors [9]*iconbutton.Button
	preview *picture.Picture
	note    *widget.Label
	ok      *widget.Button
	d       *dialog.CustomDialog
}

// marginsLabel is the shape choice that shows the four margin fields.
func marginsLabel() string { return catalogue.T("By pixels on each side") }

func growLabels() []string {
	out := []string{catalogue.T("Just enough")}
	for _, g := range grows[1:] {
		out = append(out, catalogue.F("%.0f %% more", 100*g))
	}
	return out
}

// ExpandFirst opens Expand canvas for the first input as soon as it is
// shown: the gallery's "Expand canvas…" makes an item the first input,
// which is decoded off the UI goroutine.
func (t *Room) ExpandFirst() { t.expandNext = true }

// ExpandCanvas asks how to widen the first input (outpaint).
func (t *Room) ExpandCanvas() {
	src := t.mask.painter.Image()
	if len(t.strip.inputs) == 0 || src == nil {
		dialog.ShowInformation(catalogue.T("No image to expand"), catalogue.T("Add an image first: the first one is the one widened."), t.host.Window())
		return
	}
	e := &expander{room: t, first: t.strip.inputs[0], src: src, model: t.Options().Options().Model, anchor: outpaint.Center}
	var names []string
	for _, s := range outpaint.Shapes() {
		names = append(names, s.Name)
	}
	e.shape = widget.NewSelect(append(names, marginsLabel()), func(string) { e.update() })
	e.grow = widget.NewSelect(growLabels(), func(string) { e.update() })
	for i := range e.margins {
		e.margins[i] = &widget.Entry{Text: "0", OnChanged: func(string) { e.update() }}
	}
	e.byPx = container.NewGridWithColumns(4,
		labelled(catalogue.T("Left"), e.margins[0]), labelled(catalogue.T("Top"), e.margins[1]),
		labelled(catalogue.T("Right"), e.margins[2]), labelled(catalogue.T("Bottom"), e.margins[3]))
	grid := container.NewGridWithColumns(3)
	for i := range e.anchors {
		a := outpaint.Anchor(i)
		e.anchors[i] = iconbutton.New(catalogue.F("Put the picture at the %s", anchorWords(a)), anchorIcon(a), func() { e.anchor = a; e.update() })
		grid.Add(e.anchors[i])
	}
	e.preview = picture.New(fyne.NewSize(260, 180))
	e.note = kit.HintLabel("")
	form := widget.NewForm(
		widget.NewFormItem(catalogue.T("Canvas"), container.NewVBox(e.shape, e.grow, e.byPx)),
		widget.NewFormItem(catalogue.T("Picture at"), container.NewHBox(grid)),
	)
	body := container.NewBorder(nil, e.note, nil, container.NewCenter(e.preview), form)
	e.d = dialog.NewCustomWithoutButtons(catalogue.T("Expand canvas"), body, t.host.Window())
	e.ok = &widget.Button{Text: catalogue.T("Expand"), Importance: widget.HighImportance, OnTapped: func() { e.d.Hide(); e.apply() }}
	e.d.SetButtons([]fyne.CanvasObject{&widget.Button{Text: catalogue.T("Cancel"), OnTapped: e.d.Hide}, e.ok})
	e.shape.SetSelected(names[0])
	e.grow.SetSelected(growLabels()[0])
	e.d.Resize(fyne.NewSize(720, 420))
	e.d.Show()
}

func labelled(text string, o fyne.CanvasObject) fyne.CanvasObject {
	return container.NewVBox(widget.NewLabel(text), o)
}

// size is the canvas chosen, the margins that make it when by pixels,
// and whether the model can make a result of its shape.
func (e *expander) size() (canvas image.Point, m outpaint.Margins, byPx bool) {
	src := e.src.Bounds().Size()
	if e.shape.Selected == marginsLabel() {
		v := func(i int) int { n, _ := strconv.Atoi(strings.TrimSpace(e.margins[i].Text)); return max(0, n) }
		m = outpaint.Margins{Left: v(0), Top: v(1), Right: v(2), Bottom: v(3)}
		return image.Pt(src.X+m.Left+m.Right, src.Y+m.Top+m.Bottom), m, true
	}
	grow := 0.0
	for i, l := range growLabels() {
		if l == e.grow.Selected {
			grow = grows[i]
		}
	}
	for _, s := range outpaint.Shapes() {
		if s.Name == e.shape.Selected {
			return outpaint.Canvas(src, s, grow, 16), m, false
		}
	}
	return src, m, false
}

// inOwnSpace is canvas, made from the picture as shown (sRGB), made
// again (by widenOwn, the same widening) from the picture's own numbers with its profile when it declares
// another space (an Adobe RGB photograph): sent, it is converted to sRGB
// like any input, and the kept result carries the picture's numbers and
// profile (jobs.InSRGB, imageio.Kept). canvas itself for an sRGB picture.
func inOwnSpace(first api.InputImage, canvas []byte, widenOwn func(image.Image) (*outpaint.Plan, error)) ([]byte, error) {
	data, err := first.Bytes()
	if err != nil {
		return nil, err
	}
	space := imageio.SpaceOf(data)
	if space == nil {
		return canvas, nil
	}
	raw, err := imageio.DecodeBounded(bytes.NewReader(data), imageio.MaxPixels)
	if err != nil {
		return nil, err
	}
	plan, err := widenOwn(raw)
	if err != nil {
		return nil, err
	}
	encoded, _, err := plan.PNGs()
	if err != nil {
		return nil, err
	}
	if tagged, ok := imageio.WithProfile(encoded, space.ICC, space.Name); ok {
		return tagged, nil
	}
	return canvas, nil
}

// plan is the widening chosen.
func (e *expander) plan() (*outpaint.Plan, error) {
	canvas, m, byPx := e.size()
	return widen(e.src, canvas, m, byPx, e.anchor)
}

// widen is src widened to canvas at anchor, or by m's pixels.
func widen(src image.Image, canvas image.Point, m outpaint.Margins, byPx bool, anchor outpaint.Anchor) (*outpaint.Plan, error) {
	if byPx {
		return outpaint.ExpandBy(src, m)
	}
	return outpaint.Expand(src, canvas, anchor)
}

// update follows the choices: the fields shown, the anchor marked, the
// preview, and what will be sent, or why it cannot be.
func (e *expander) update() {
	if e.ok == nil {
		return // still being built
	}
	canvas, _, byPx := e.size()
	e.grow.Hidden = byPx
	e.byPx.Hidden = !byPx
	for i, b := range e.anchors {
		b.Importance = widget.MediumImportance
		if outpaint.Anchor(i) == e.anchor {
			b.Importance = widget.HighImportance
		}
		setEnabled(&b.Button, !byPx)
		b.Refresh()
	}
	src := e.src.Bounds().Size()
	at := outpaint.Place(src, canvas, e.anchor)
	if byPx {
		_, m, _ := e.size()
		at = image.Rectangle{Min: image.Pt(m.Left, m.Top), Max: image.Pt(m.Left+src.X, m.Top+src.Y)}
	}
	e.preview.SetImage(previewOf(e.first.Thumb, canvas, at))
	sent := api.MatchSize(e.model, canvas.X, canvas.Y)
	sw, sh, _ := api.ParseSize(sent)
	fits := imageio.SameShape(image.Pt(sw, sh), canvas)
	grows := canvas.X > src.X || canvas.Y > src.Y
	switch {
	case !grows:
		e.note.Importance = widget.MediumImportance
		e.note.SetText(catalogue.T("This canvas is the picture's own size: choose another shape, more room, or some pixels on a side."))
	case !fits:
		e.note.Importance = widget.DangerImportance
		e.note.SetText(catalogue.F("%s makes %s, not the shape of a %d×%d canvas, so the picture could not be put back: choose another shape.", e.model, strings.Replace(sent, "x", "×", 1), canvas.X, canvas.Y))
	default:
		e.note.Importance = widget.MediumImportance
		e.note.SetText(catalogue.F("Canvas %d×%d, sent at %s; the new area is masked and the picture is put back exactly in the result. Paint more or less on it before sending.", canvas.X, canvas.Y, strings.Replace(sent, "x", "×", 1)))
	}
	e.note.Refresh()
	setEnabled(e.ok, grows && fits)
}

// apply builds the canvas and the mask off the UI goroutine and makes
// them the first input.
func (e *expander) apply() {
	t := e.room
	plan, err := e.plan()
	if err != nil {
		dialog.ShowError(err, t.host.Window())
		return
	}
	name := strings.TrimSuffix(e.first.Image.Name, filepath.Ext(e.first.Image.Name)) + "-expanded.png"
	first := e.first.Image
	canvasSize, margins, byPx := e.size()
	widenOwn := func(src image.Image) (*outpaint.Plan, error) { return widen(src, canvasSize, margins, byPx, e.anchor) }
	work.Load(t.host.Work(), func(context.Context) (Input, error) {
		data, _, err := plan.PNGs()
		if err == nil {
			data, err = inOwnSpace(first, data, widenOwn)
		}
		if err != nil {
			return Input{}, err
		}
		return NewInput(name, "image/png", data, e.first.Item, plan.Canvas), nil
	}, func(in Input, err error) {
		if err != nil {
			dialog.ShowError(err, t.host.Window())
			return
		}
		t.useCanvas(in, plan)
	})
}

// useCanvas makes in (a widened first image) the first input with its
// new area masked, and sends it at its own shape with the picture put
// back.
func (t *Room) useCanvas(in Input, plan *outpaint.Plan) {
	if len(t.strip.inputs) == 0 {
		t.strip.inputs = []Input{in}
	} else {
		t.strip.inputs[0] = in
	}
	t.mask.masks[key(&t.strip.inputs[0])] = mask.FromImage(plan.Mask)
	t.Options().MatchFirst()
	t.keep.check.SetChecked(true)
	t.strip.update()
	note := catalogue.F("The first image is now a %d×%d canvas; its new area is masked. Say what fills it, then send.", plan.Canvas.Rect.Dx(), plan.Canvas.Rect.Dy())
	if plan.Scaled != (image.Point{}) {
		note += " " + catalogue.F("The picture was scaled to %d×%d to fit.", plan.Scaled.X, plan.Scaled.Y)
	}
	t.SetStatus(note)
}

// previewOf is the canvas in small: the new area hatched, the picture
// (its thumbnail) where it will sit.
func previewOf(thumb image.Image, canvas image.Point, at image.Rectangle) image.Image {
	const side = 240
	f := min(float64(side)/float64(canvas.X), float64(side)/float64(canvas.Y))
	w, h := max(1, int(float64(canvas.X)*f)), max(1, int(float64(canvas.Y)*f))
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{170, 170, 180, 255}
			if (x+y)/6%2 == 0 {
				c = color.NRGBA{200, 200, 210, 255}
			}
			out.SetNRGBA(x, y, c)
		}
	}
	r := image.Rect(int(float64(at.Min.X)*f), int(float64(at.Min.Y)*f), int(float64(at.Max.X)*f+0.5), int(float64(at.Max.Y)*f+0.5))
	if thumb != nil && !r.Empty() {
		xdraw.ApproxBiLinear.Scale(out, r, thumb, thumb.Bounds(), draw.Src, nil)
	}
	return out
}

// anchorIcon is an arrow pointing where the picture goes (a dot for the
// middle), drawn in the theme's foreground: the font's diagonal arrows
// come out as coloured emoji on some systems.
func anchorIcon(a outpaint.Anchor) fyne.Resource {
	const arrow = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g transform="rotate(%d 12 12)"><path fill="#000" d="M12 4l-6 6h4.5v10h3V10H18z"/></g></svg>`
	const dot = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle fill="#000" cx="12" cy="12" r="4"/></svg>`
	angles := [9]int{-45, 0, 45, -90, 0, 90, -135, 180, 135}
	svg := fmt.Sprintf(arrow, angles[a])
	if a == outpaint.Center {
		svg = dot
	}
	return theme.NewThemedResource(fyne.NewStaticResource(fmt.Sprintf("anchor-%d.svg", a), []byte(svg)))
}

// anchorWords names where an anchor puts the picture, for a screen
// reader (the buttons show arrows).
func anchorWords(a outpaint.Anchor) string {
	return [9]string{catalogue.T("top left"), catalogue.T("top"), catalogue.T("top right"), catalogue.T("left"), catalogue.T("middle"),
		catalogue.T("right"), catalogue.T("bottom left"), catalogue.T("bottom"), catalogue.T("bottom right")}[a]
}
