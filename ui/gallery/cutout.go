package gallery

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"time"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/cutout"
	"easel/internal/imageio"
	"easel/internal/latest"
	"easel/internal/library"
	"easel/internal/mask"
	"easel/internal/work"
	"easel/ui/kit"
	"easel/ui/widgets/maskpaint"
	"easel/ui/widgets/picture"
)

// previewSide is the longest side of the picture keyed for the preview:
// small enough to key again as the tolerance slider moves.
const previewSide = 360

// keyer is "Make transparent…": the key colour (the border's, or typed),
// how close a colour must be to go, a preview on a checkerboard, and the
// keyed picture kept as its own gallery item under the original.
type keyer struct {
	pane      *detailsPane
	it        library.Item
	full      image.Image
	small     image.Image
	key       *widget.Entry
	swatch    *canvas.Rectangle
	tolerance *widget.Slider
	preview   *picture.Picture
	note      *widget.Label
	ok        *widget.Button
	refine    *widget.Button
	d         *dialog.CustomDialog
	loads     *latest.Loads // the preview's keying: the newest is shown
	// border is the colour read at the picture's edge, the key it
	// starts from.
	border string
}

// makeTransparent decodes the item off the UI goroutine and opens the
// dialog.
func (p *detailsPane) makeTransparent(it library.Item) {
	lib := p.host.Library()
	if lib == nil || it.Missing {
		return
	}
	work.Load(p.host.Work(), func(context.Context) (*keyer, error) {
		img, err := imageio.DecodeFile(lib.Path(it))
		if err != nil {
			return nil, err
		}
		return &keyer{pane: p, it: it, full: img, small: imageio.Fit(img, previewSide), border: cutout.Hex(cutout.BorderColour(img))}, nil
	}, func(k *keyer, err error) {
		if err != nil {
			dialog.ShowError(err, p.host.Window())
			return
		}
		k.loads = latest.New(p.host.Work())
		k.open(k.border)
	})
}

func (k *keyer) open(border string) {
	w := k.pane.host.Window()
	k.key = &widget.Entry{Text: border, OnChanged: func(string) { k.update() }}
	k.swatch = canvas.NewRectangle(nil)
	k.swatch.SetMinSize(fyne.NewSize(28, 28))
	k.tolerance = widget.NewSlider(4, 160)
	k.tolerance.Step = 2
	k.tolerance.SetValue(cutout.DefaultTolerance)
	k.tolerance.OnChangeEnded = func(float64) { k.update() }
	k.preview = picture.New(fyne.NewSize(previewSide, previewSide*2/3))
	k.note = kit.HintLabel("")
	form := widget.NewForm(
		kit.FormItem(catalogue.T("Key colour"), container.NewBorder(nil, nil, k.swatch, nil, k.key),
			catalogue.T("The background's flat colour; Easel took the border's commonest. When a model gives no transparency, ask it for a plain background in a colour the subject lacks.")),
		kit.FormItem(catalogue.T("Tolerance"), k.tolerance, catalogue.T("How far from the key a colour may be and still go: raise it for a noisy background, lower it where the subject shares its colour.")),
	)
	k.ok = &widget.Button{Text: catalogue.T("Make transparent"), Importance: widget.HighImportance, OnTapped: k.apply}
	k.d = dialog.NewCustomWithoutButtons(catalogue.T("Make transparent"), container.NewBorder(nil, k.note, nil, nil, container.NewHBox(container.NewVBox(form), k.preview)), w)
	k.refine = &widget.Button{Text: catalogue.T("Refine with the brush…"), Icon: theme.ColorPaletteIcon(), OnTapped: k.openRefine}
	k.d.SetButtons([]fyne.CanvasObject{&widget.Button{Text: catalogue.T("Cancel"), OnTapped: k.d.Hide}, k.refine, k.ok})
	k.d.Resize(fyne.NewSize(820, 440))
	k.d.Show()
	k.update()
}

// options are the keying chosen; an unreadable colour is an error.
func (k *keyer) options() (cutout.Options, error) {
	c, err := cutout.ParseColour(k.key.Text)
	if err != nil {
		return cutout.Options{}, err
	}
	return cutout.Options{Key: &c, Tolerance: k.tolerance.Value}, nil
}

// update keys the small picture again off the UI goroutine (the latest
// choice wins) and shows it with what share went.
func (k *keyer) update() {
	o, err := k.options()
	if err != nil {
		k.note.Importance = widget.DangerImportance
		k.note.SetText(err.Error())
		k.ok.Disable()
		k.refine.Disable()
		return
	}
	k.swatch.FillColor = *o.Key
	k.swatch.Refresh()
	small := k.small
	latest.Run(k.loads, func(context.Context) (cutout.Result, error) { return cutout.Key(small, o), nil }, func(res cutout.Result, _ error) {
		k.preview.SetImage(res.Image)
		k.note.Importance = widget.MediumImportance
		if res.Cleared == 0 {
			k.note.Importance = widget.WarningImportance
			k.note.SetText(catalogue.F("No pixel is within the tolerance of %s: pick the background's colour, or raise the tolerance.", cutout.Hex(res.Key)))
			k.ok.Disable()
			k.refine.Disable()
			return
		}
		k.note.SetText(catalogue.F("%.0f %% of the picture becomes transparent; its edges are softened and freed of the key's colour. The original stays as it is.", 100*res.Cleared))
		k.ok.Enable()
		k.refine.Enable()
	})
}

// apply keys the whole picture off the UI goroutine and keeps it as a
// new item whose parent is the original, then opens it.
func (k *keyer) apply() {
	o, err := k.options()
	if err != nil {
		return
	}
	k.d.Hide()
	t, it, full := k.pane, k.it, k.full
	lib := t.host.Library()
	k.keepAndOpen(func(ctx context.Context) (int64, error) { return keepCutout(ctx, lib, it, full, o) })
}

// keepAndOpen keeps a cut-out with keep, off the UI goroutine, then
// opens it in the gallery, or says why it could not be kept.
func (k *keyer) keepAndOpen(keep func(ctx context.Context) (int64, error)) {
	t := k.pane
	// The user asked for it: it lands even as the window closes.
	work.Load(t.host.Work(), func(ctx context.Context) (int64, error) { return keep(context.WithoutCancel(ctx)) }, func(id int64, err error) {
		if err != nil {
			dialog.ShowError(err, t.host.Window())
			return
		}
		t.grid.reload()
		t.grid.openID(id)
	})
}

// keepCutout keys img (item it's picture) and adds it to lib as a cut-out
// of it.
func keepCutout(ctx context.Context, lib *library.Library, it library.Item, img image.Image, o cutout.Options) (int64, error) {
	return keepKeyed(ctx, lib, it, cutout.Key(img, o).Image)
}

// keepKeyed adds a keyed picture to lib as a cut-out of item it.
func keepKeyed(ctx context.Context, lib *library.Library, it library.Item, keyed *image.NRGBA) (int64, error) {
	res := cutout.Result{Image: keyed}
	var b bytes.Buffer
	if err := png.Encode(&b, res.Image); err != nil {
		return 0, err
	}
	id, err := lib.Add(ctx, library.NewItem{
		Image: api.Image{Data: b.Bytes(), Format: "png", Width: res.Image.Rect.Dx(), Height: res.Image.Rect.Dy()},
		Kind:  "cutout", Prompt: it.Prompt, Model: it.Model, Profile: it.Profile, Params: it.Params,
		Created: time.Now(), Parents: []int64{it.ID}})
	if err != nil {
		return 0, fmt.Errorf(catalogue.T("the cut-out could not be kept: %w"), err)
	}
	return id, nil
}

// openRefine keys the whole picture off the UI goroutine and opens the
// brush over it: the tint shows what goes; the brush takes away more,
// the eraser brings back.
func (k *keyer) openRefine() {
	o, err := k.options()
	if err != nil {
		return
	}
	k.d.Hide()
	t, full := k.pane, k.full
	work.Load(t.host.Work(), func(context.Context) (*image.NRGBA, error) { return cutout.Key(full, o).Image, nil },
		func(keyed *image.NRGBA, _ error) { k.showRefine(keyed) })
}

func (k *keyer) showRefine(keyed *image.NRGBA) {
	t := k.pane
	p := maskpaint.New(fyne.NewSize(560, 380))
	p.SetImageMask(k.full, mask.FromAlpha(cutout.Removed(keyed)))
	eraser := kit.NewCheck(catalogue.T("Bring back (E)"), func(on bool) { p.Erase = on })
	p.OnChanged = func() { eraser.SetChecked(p.Erase) }
	size := widget.NewSlider(1, 200)
	size.SetValue(p.Radius)
	size.OnChanged = func(v float64) { p.Radius = v }
	undo := iconbutton.New(catalogue.T("Undo the last stroke"), theme.ContentUndoIcon(), func() { p.Do((*mask.Mask).Undo) })
	redo := iconbutton.New(catalogue.T("Redo the stroke"), theme.ContentRedoIcon(), func() { p.Do((*mask.Mask).Redo) })
	bar := container.NewBorder(nil, nil, container.NewHBox(undo, redo, eraser, widget.NewLabel(catalogue.T("Size"))), nil, size)
	hint := kit.HintLabel(catalogue.T("The tint shows what goes. Paint to take more away; with Bring back, paint to keep what the key took."))
	d := dialog.NewCustomWithoutButtons(catalogue.T("Refine the cut-out"), container.NewBorder(container.NewVBox(bar, hint), nil, nil, nil, p), t.host.Window())
	keep := &widget.Button{Text: catalogue.T("Keep the cut-out"), Importance: widget.HighImportance, OnTapped: func() {
		d.Hide()
		removed := p.Mask().Alpha()
		lib, it, full := t.host.Library(), k.it, k.full
		k.keepAndOpen(func(ctx context.Context) (int64, error) {
			return keepKeyed(ctx, lib, it, cutout.Refine(full, keyed, removed))
		})
	}}
	d.SetButtons([]fyne.CanvasObject{&widget.Button{Text: catalogue.T("Cancel"), OnTapped: d.Hide}, keep})
	s := t.host.Window().Canvas().Size()
	d.Resize(fyne.NewSize(s.Width*0.9, s.Height*0.9))
	d.Show()
	t.host.Window().Canvas().Focus(p)
}
