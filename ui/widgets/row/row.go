// Package row lays objects side by side, each at its own width, for a
// strip that changes often: a fyne.Container refreshes every child on
// each Refresh, and a strip of sixteen tiles re-truncated its 32 labels
// (each a text shaping) whenever one tile was added or moved.
package row

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Row is objects in a row, padded apart, each its minimum width and the
// row's height. Set Objects and Refresh: the row is laid out again and
// repainted, and its objects are refreshed only by whoever changes them.
// A theme change still reaches them (Fyne walks the renderer's objects).
type Row struct {
	widget.BaseWidget
	Objects []fyne.CanvasObject
}

// New is a row of objs.
func New(objs ...fyne.CanvasObject) *Row {
	r := &Row{Objects: objs}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer implements fyne.Widget.
func (r *Row) CreateRenderer() fyne.WidgetRenderer { return &renderer{row: r} }

type renderer struct{ row *Row }

func (x *renderer) Layout(size fyne.Size) {
	pad := theme.Padding()
	pos := fyne.NewPos(0, 0)
	for _, o := range x.row.Objects {
		if !o.Visible() {
			continue
		}
		w := o.MinSize().Width
		o.Move(pos)
		o.Resize(fyne.NewSize(w, size.Height))
		pos.X += w + pad
	}
}

func (x *renderer) MinSize() fyne.Size {
	pad := theme.Padding()
	var s fyne.Size
	n := 0
	for _, o := range x.row.Objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width += m.Width
		s.Height = max(s.Height, m.Height)
		n++
	}
	if n > 1 {
		s.Width += pad * float32(n-1)
	}
	return s
}

// Refresh lays the row out again and repaints it, without refreshing
// each object.
func (x *renderer) Refresh() {
	x.Layout(x.row.Size())
	canvas.Refresh(x.row)
}

func (x *renderer) Objects() []fyne.CanvasObject { return x.row.Objects }

func (x *renderer) Destroy() {}
