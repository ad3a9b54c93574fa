// Package reorder is the grip that moves an item of a list: drag it up or
// down (or, in a strip, left or right) by whole rows, or focus it (a
// click, or Tab) and press Up or Down (Left or Right), Delete to remove. Edit's inputs are ordered (the prompt says "the
// first", "the second"), so their order must be easy to change by hand
// and by keyboard. The grip knows nothing of the list: it reports steps.
package reorder

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Handle is a grip for one row of a list.
type Handle struct {
	widget.BaseWidget
	// RowHeight is the height of one row, in units: a drag moves by
	// whole rows. In a Horizontal strip it is one tile's width.
	RowHeight func() float32
	// Horizontal makes the grip move along a strip: it follows the
	// drag's X, not its Y.
	Horizontal bool
	// OnDragging is told, while a drag goes on, how many rows it would
	// move the row (negative: up), to show where it will land.
	OnDragging func(steps int)
	// OnMove moves the row by steps (negative: up); OnRemove removes it.
	OnMove   func(steps int)
	OnRemove func()

	dy      float32
	drag    bool
	focused bool
	bg      *canvas.Rectangle
}

// New makes a grip.
func New(rowHeight func() float32, onMove func(int)) *Handle {
	h := &Handle{RowHeight: rowHeight, OnMove: onMove}
	h.ExtendBaseWidget(h)
	return h
}

// Steps is how many whole rows a drag of dy units moves, rounded to the
// nearest: past half a row counts.
func Steps(dy, rowHeight float32) int {
	if rowHeight <= 0 {
		return 0
	}
	return int(math.Round(float64(dy / rowHeight)))
}

// Dragged implements fyne.Draggable.
func (h *Handle) Dragged(e *fyne.DragEvent) {
	h.drag = true
	if h.Horizontal {
		h.dy += e.Dragged.DX
	} else {
		h.dy += e.Dragged.DY
	}
	if h.OnDragging != nil {
		h.OnDragging(Steps(h.dy, h.RowHeight()))
	}
}

// DragEnd implements fyne.Draggable: the row moves by the rows dragged.
func (h *Handle) DragEnd() {
	steps := Steps(h.dy, h.RowHeight())
	h.dy, h.drag = 0, false
	if h.OnDragging != nil {
		h.OnDragging(0)
	}
	if steps != 0 && h.OnMove != nil {
		h.OnMove(steps)
	}
}

// Tapped implements fyne.Tappable: the grip takes the keys.
func (h *Handle) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(h); c != nil {
		c.Focus(h)
	}
}

// Cursor implements desktop.Cursorable: a hand says it can be moved.
func (h *Handle) Cursor() desktop.Cursor { return desktop.PointerCursor }

// FocusGained implements fyne.Focusable.
func (h *Handle) FocusGained() { h.focused = true; h.Refresh() }

// FocusLost implements fyne.Focusable.
func (h *Handle) FocusLost() { h.focused = false; h.Refresh() }

// TypedRune implements fyne.Focusable.
func (h *Handle) TypedRune(rune) {}

// TypedKey moves the row with Up and Down (or Left and Right), and
// removes it with Delete or Backspace.
func (h *Handle) TypedKey(e *fyne.KeyEvent) {
	switch e.Name {
	case fyne.KeyUp, fyne.KeyLeft:
		if h.OnMove != nil {
			h.OnMove(-1)
		}
	case fyne.KeyDown, fyne.KeyRight:
		if h.OnMove != nil {
			h.OnMove(1)
		}
	case fyne.KeyDelete, fyne.KeyBackspace:
		if h.OnRemove != nil {
			h.OnRemove()
		}
	}
}

// MinSize implements fyne.Widget.
func (h *Handle) MinSize() fyne.Size {
	s := theme.IconInlineSize() + 2*theme.Padding()
	return fyne.NewSize(s, s)
}

// CreateRenderer implements fyne.Widget.
func (h *Handle) CreateRenderer() fyne.WidgetRenderer {
	h.bg = canvas.NewRectangle(theme.Color(theme.ColorNameFocus))
	icon := widget.NewIcon(theme.MenuIcon())
	return &renderer{h: h, box: container.NewStack(h.bg, container.NewCenter(icon))}
}

type renderer struct {
	h   *Handle
	box *fyne.Container
}

func (r *renderer) Layout(s fyne.Size) { r.box.Resize(s) }
func (r *renderer) MinSize() fyne.Size { return r.h.MinSize() }
func (r *renderer) Refresh() {
	r.h.bg.FillColor = theme.Color(theme.ColorNameFocus)
	r.h.bg.Hidden = !r.h.focused && !r.h.drag
	r.h.bg.Refresh()
}
func (r *renderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.box} }
func (r *renderer) Destroy()                     {}
