package gallery

import (
	"bytes"
	"context"
	"image"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/latest"
	"easel/internal/library"
	"easel/internal/viewport"
	"easel/ui/widgets/zoomview"
)

// largeView is one item at full resolution over the window: it fits,
// shows 100 %, zooms and pans, closes on Esc, and steps through the
// gallery's current order with the arrow keys, moving the grid's cursor
// with it so that the details follow.
type largeView struct {
	pane    *detailsPane
	d       *dialog.CustomDialog
	v       *zoomview.View
	title   *widget.Label
	size    *widget.Label
	percent *widget.Label
	prev    *iconbutton.Button
	next    *iconbutton.Button
	at      int           // place in the grid; -1 when the item is not in it
	loads   *latest.Loads // the picture's decodes: the newest is shown
	// player plays a GIF's frames; hidden for other items.
	player *player
}

// viewLarge shows an item large, from wherever it is in the grid: at
// the cursor's place when it is there.
func (p *detailsPane) viewLarge(it library.Item) {
	at := p.grid.cursor()
	if got, ok := p.grid.itemAt(at); !ok || got.ID != it.ID {
		at = -1
	}
	p.viewLargeAt(it, at)
}

// viewLargeAt shows the item at place i large; the file is decoded off
// the UI goroutine.
func (p *detailsPane) viewLargeAt(it library.Item, i int) {
	if p.host.Library() == nil || it.Missing {
		return
	}
	l := &largeView{pane: p, at: i, loads: latest.New(p.host.Work())}
	p.large = l
	l.load(it, true)
}

// load decodes it and shows it, opening the dialog the first time.
func (l *largeView) load(it library.Item, first bool) {
	path := l.pane.host.Library().Path(it)
	type decoded struct {
		img    image.Image
		opaque bool
		anim   imageio.Animation
	}
	latest.Run(l.loads, func(context.Context) (decoded, error) {
		if it.Format != "gif" {
			img, err := imageio.DecodeFile(path)
			return decoded{img: img, opaque: err == nil && imageio.IsOpaque(img)}, err
		}
		// A GIF is read once: its first frame to show, every frame to
		// play (a GIF too large to play shows its first frame).
		data, err := imageio.ReadFile(path)
		if err != nil {
			return decoded{}, err
		}
		img, err := imageio.DecodeBounded(bytes.NewReader(data), imageio.MaxPixels)
		d := decoded{img: img, opaque: err == nil && imageio.IsOpaque(img)}
		if err == nil {
			d.anim, _ = imageio.DecodeAnimation(data)
		}
		return d, err
	}, func(d decoded, err error) {
		if err != nil {
			dialog.ShowError(err, l.pane.host.Window())
			return
		}
		if first {
			l.open(it, d.img, d.opaque)
		} else {
			l.show(it, d.img, d.opaque)
		}
		l.player.play(it, d.anim)
	})
}

func (l *largeView) open(it library.Item, img image.Image, opaque bool) {
	l.v = zoomview.New(fyne.NewSize(600, 400))
	l.percent = widget.NewLabel("")
	l.size = widget.NewLabel("")
	l.title = &widget.Label{TextStyle: fyne.TextStyle{Bold: true}, Truncation: fyne.TextTruncateEllipsis}
	l.v.OnZoom = func(p float64) { l.percent.SetText(catalogue.F("%.0f %%", p)) }
	l.v.OnKey = l.key
	l.prev = iconbutton.New(catalogue.T("Previous picture"), theme.NavigateBackIcon(), func() { l.step(-1) })
	l.next = iconbutton.New(catalogue.T("Next picture"), theme.NavigateNextIcon(), func() { l.step(1) })
	bar := container.NewHBox(
		l.prev, l.next,
		&widget.Button{Text: catalogue.T("Fit (Ctrl+0)"), Icon: theme.ZoomFitIcon(), OnTapped: l.v.Fit},
		&widget.Button{Text: catalogue.T("100 % (Ctrl+1)"), OnTapped: l.v.Actual},
		iconbutton.New(catalogue.T("Zoom out"), theme.ZoomOutIcon(), func() { l.v.ZoomBy(1 / viewport.ZoomStep) }),
		l.percent,
		iconbutton.New(catalogue.T("Zoom in"), theme.ZoomInIcon(), func() { l.v.ZoomBy(viewport.ZoomStep) }),
		l.size)
	w := l.pane.host.Window()
	l.player = newPlayer(l.pane.host, l.v)
	l.d = dialog.NewCustom(catalogue.T("Gallery"), catalogue.T("Close"), container.NewBorder(container.NewVBox(l.title, bar, l.player.bar), nil, nil, nil, l.v), w)
	l.d.SetOnClosed(l.player.stop)
	size := w.Canvas().Size()
	l.d.Resize(fyne.NewSize(size.Width*0.92, size.Height*0.92))
	l.show(it, img, opaque)
	l.d.Show()
	w.Canvas().Focus(l.v)
}

// show puts it in the open view.
func (l *largeView) show(it library.Item, img image.Image, opaque bool) {
	l.v.SetImage(img, opaque)
	l.title.SetText(shortTitle(it))
	// Words, not arrow glyphs: the UI font of some systems has none and
	// drew boxes (issue 40, item 11); the buttons beside it are icons.
	l.size.SetText(catalogue.F("%d × %d · Ctrl+wheel zooms, the wheel or a drag moves · the Left and Right keys step", it.Width, it.Height))
	_, before := l.pane.grid.itemAt(l.at - 1)
	_, after := l.pane.grid.itemAt(l.at + 1)
	setEnabled(&l.prev.Button, l.at >= 0 && before)
	setEnabled(&l.next.Button, l.at >= 0 && after)
}

// key closes the view on Esc and steps on the arrows.
func (l *largeView) key(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		l.d.Hide()
	case fyne.KeyLeft, fyne.KeyUp, fyne.KeyPageUp:
		l.step(-1)
	case fyne.KeyRight, fyne.KeyDown, fyne.KeyPageDown, fyne.KeySpace:
		l.step(1)
	}
}

// step shows the item d places on in the gallery's order, and moves the
// grid's cursor there.
func (l *largeView) step(d int) {
	if l.at < 0 {
		return
	}
	it, ok := l.pane.grid.itemAt(l.at + d)
	if !ok || it.Missing {
		return
	}
	l.at += d
	l.pane.grid.moveTo(l.at)
	l.load(it, false)
}

func setEnabled(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}
