// Package choice is a radio group for dialogs. Fyne's RadioGroup gives
// the focus to each of its items, and a focused item takes every key
// while using only Space: Esc and Enter typed while a radio had the focus
// never reached the window, so the dialog on top could not be answered
// from the keyboard (issue 40, item 9). A Choice looks and behaves as a
// RadioGroup, hands Esc, Enter and Return to the window's own key
// handler, and moves the selection with the arrow keys as a desktop's
// radio groups do.
package choice

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/ui/kit"
)

// Choice is a set of options of which one (or, unless Required, none) is
// selected.
type Choice struct {
	widget.DisableableWidget
	Options []string
	// Selected is the selected option's text, "" for none; after setting
	// it directly, call Refresh.
	Selected string
	// Horizontal lays the options out in a row, each as wide as the
	// widest.
	Horizontal bool
	// Required keeps one option selected: tapping the selected one does
	// not clear it.
	Required  bool
	OnChanged func(string)

	items []*item // one per option, kept by the renderer
}

// New makes a vertical Choice of options with nothing selected.
func New(options []string, changed func(string)) *Choice {
	c := &Choice{Options: options, OnChanged: changed}
	c.ExtendBaseWidget(c)
	return c
}

// SetSelected selects option (one of Options, or "" for none) and tells
// OnChanged when that changed the selection.
func (c *Choice) SetSelected(option string) {
	if c.Selected == option {
		return
	}
	c.Selected = option
	if c.OnChanged != nil {
		c.OnChanged(option)
	}
	c.Refresh()
}

// pick is what a tap, Space or an arrow on the option at i does.
func (c *Choice) pick(i int) {
	if c.Disabled() || i < 0 || i >= len(c.Options) {
		return
	}
	if c.Options[i] == c.Selected {
		if c.Required {
			return
		}
		c.SetSelected("")
		return
	}
	c.SetSelected(c.Options[i])
}

// CreateRenderer implements fyne.Widget.
func (c *Choice) CreateRenderer() fyne.WidgetRenderer {
	r := &groupRenderer{c: c}
	r.update()
	return r
}

type groupRenderer struct {
	c *Choice
}

func (r *groupRenderer) update() {
	c := r.c
	for len(c.items) < len(c.Options) {
		c.items = append(c.items, newItem(c, len(c.items)))
	}
	c.items = c.items[:len(c.Options)]
	for i, it := range c.items {
		it.label, it.selected = r.c.Options[i], r.c.Options[i] == r.c.Selected
		it.disabled = r.c.Disabled()
	}
}

func (r *groupRenderer) Layout(_ fyne.Size) {
	one := r.itemMin()
	var at fyne.Position
	for _, it := range r.c.items {
		it.Resize(one)
		it.Move(at)
		if r.c.Horizontal {
			at.X += one.Width
		} else {
			at.Y += one.Height
		}
	}
}

// itemMin is every item's size: the largest of their least sizes.
func (r *groupRenderer) itemMin() fyne.Size {
	var one fyne.Size
	for _, it := range r.c.items {
		one = one.Max(it.MinSize())
	}
	return one
}

func (r *groupRenderer) MinSize() fyne.Size {
	one, n := r.itemMin(), float32(len(r.c.items))
	if r.c.Horizontal {
		return fyne.NewSize(one.Width*n, one.Height)
	}
	return fyne.NewSize(one.Width, one.Height*n)
}

func (r *groupRenderer) Objects() []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, len(r.c.items))
	for i, it := range r.c.items {
		out[i] = it
	}
	return out
}

func (r *groupRenderer) Refresh() {
	n := len(r.c.items)
	r.update()
	if n != len(r.c.items) {
		r.Layout(r.c.Size())
	}
	for _, it := range r.c.items {
		it.Refresh()
	}
}

func (r *groupRenderer) Destroy() {}

// item is one option: the focus stops at each, as at a RadioGroup's.
type item struct {
	widget.BaseWidget
	c                *Choice
	at               int
	label            string
	selected         bool
	disabled         bool
	focused, hovered bool
}

var (
	_ fyne.Disableable  = (*item)(nil)
	_ fyne.Focusable    = (*item)(nil)
	_ fyne.Tappable     = (*item)(nil)
	_ desktop.Hoverable = (*item)(nil)
)

func newItem(c *Choice, at int) *item {
	it := &item{c: c, at: at}
	it.ExtendBaseWidget(it)
	return it
}

// Tapped selects the option and takes the focus, as a RadioGroup's
// item does on a desktop.
func (it *item) Tapped(*fyne.PointEvent) {
	if it.disabled {
		return
	}
	it.focus(it)
	it.c.pick(it.at)
}

func (it *item) focus(o fyne.Focusable) {
	if cv := fyne.CurrentApp().Driver().CanvasForObject(it); cv != nil && !fyne.CurrentDevice().IsMobile() {
		cv.Focus(o)
	}
}

// Disabled is the choice's: the focus passes over a disabled choice's
// options.
func (it *item) Disabled() bool { return it.disabled }

// Disable disables the whole choice.
func (it *item) Disable() { it.c.Disable() }

// Enable enables the whole choice.
func (it *item) Enable() { it.c.Enable() }

// FocusGained implements fyne.Focusable.
func (it *item) FocusGained() { it.focused = true; it.Refresh() }

// FocusLost implements fyne.Focusable.
func (it *item) FocusLost() { it.focused = false; it.Refresh() }

// TypedRune selects the option on Space.
func (it *item) TypedRune(r rune) {
	if r == ' ' {
		it.c.pick(it.at)
	}
}

// TypedKey hands Esc, Enter and Return to the window, and moves the
// selection and the focus to the option before or after on an arrow.
func (it *item) TypedKey(k *fyne.KeyEvent) {
	if kit.ToWindow(it, k) {
		return
	}
	step := 0
	switch k.Name {
	case fyne.KeyUp, fyne.KeyLeft:
		step = -1
	case fyne.KeyDown, fyne.KeyRight:
		step = 1
	}
	next := it.at + step
	if step == 0 || it.disabled || next < 0 || next >= len(it.c.Options) {
		return
	}
	if next < len(it.c.items) {
		it.focus(it.c.items[next])
	}
	if it.c.Options[next] != it.c.Selected {
		it.c.pick(next)
	}
}

// MouseIn implements desktop.Hoverable.
func (it *item) MouseIn(*desktop.MouseEvent) { it.hovered = !it.disabled; it.Refresh() }

// MouseMoved implements desktop.Hoverable.
func (it *item) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable.
func (it *item) MouseOut() { it.hovered = false; it.Refresh() }

// CreateRenderer implements fyne.Widget.
func (it *item) CreateRenderer() fyne.WidgetRenderer {
	r := &itemRenderer{it: it, label: canvas.NewText("", color.Black), ring: canvas.NewCircle(color.Transparent),
		fill: canvas.NewImageFromResource(nil), edge: canvas.NewImageFromResource(nil)}
	r.Refresh()
	return r
}

// itemRenderer draws an option as Fyne's radio item does: the focus or
// hover ring, the filled and outlined circle, the text.
type itemRenderer struct {
	it         *item
	label      *canvas.Text
	ring       *canvas.Circle
	fill, edge *canvas.Image
}

func (r *itemRenderer) Layout(size fyne.Size) {
	th := r.it.Theme()
	inner, border, icon := th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNameInputBorder), th.Size(theme.SizeNameInlineIcon)
	ring := fyne.NewSquareSize(icon + inner)
	r.ring.Resize(ring)
	r.ring.Move(fyne.NewPos(border, (size.Height-ring.Height)/2))
	r.label.Resize(size)
	r.label.Move(fyne.NewPos(ring.Width+th.Size(theme.SizeNamePadding), 0))
	at := fyne.NewPos(inner/2+border, (size.Height-icon)/2)
	for _, img := range []*canvas.Image{r.fill, r.edge} {
		img.Resize(fyne.NewSquareSize(icon))
		img.Move(at)
	}
}

func (r *itemRenderer) MinSize() fyne.Size {
	th := r.it.Theme()
	inner := th.Size(theme.SizeNameInnerPadding) * 2
	return r.label.MinSize().AddWidthHeight(inner+th.Size(theme.SizeNameInlineIcon)+th.Size(theme.SizeNamePadding), inner)
}

func (r *itemRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.ring, r.fill, r.edge, r.label}
}

func (r *itemRenderer) Destroy() {}

func (r *itemRenderer) Refresh() {
	it, th := r.it, r.it.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.label.Text, r.label.TextSize = it.label, th.Size(theme.SizeNameText)
	r.label.Color = th.Color(theme.ColorNameForeground, v)
	edge, fill := theme.NewThemedResource(th.Icon(theme.IconNameRadioButton)), theme.NewThemedResource(th.Icon(theme.IconNameRadioButtonFill))
	edge.ColorName, fill.ColorName = theme.ColorNameInputBorder, theme.ColorNameInputBackground
	if it.selected {
		edge.ColorName, fill.ColorName = theme.ColorNameForeground, theme.ColorNamePrimary
	}
	r.ring.FillColor = color.Transparent
	switch {
	case it.disabled:
		r.label.Color = th.Color(theme.ColorNameDisabled, v)
		edge.ColorName, fill.ColorName = theme.ColorNameDisabled, theme.ColorNameBackground
		if it.selected {
			fill.ColorName = theme.ColorNameDisabled
		}
	case it.focused:
		r.ring.FillColor = th.Color(theme.ColorNameFocus, v)
	case it.hovered:
		r.ring.FillColor = th.Color(theme.ColorNameHover, v)
	}
	r.fill.Resource, r.edge.Resource = fill, edge
	r.fill.Refresh()
	r.edge.Refresh()
	r.ring.Refresh()
	r.label.Refresh()
}
