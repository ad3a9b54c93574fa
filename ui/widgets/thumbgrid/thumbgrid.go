// Package thumbgrid is the gallery's grid: a virtual grid of cells (only
// those on screen exist, so a hundred thousand images cost a screenful)
// with a selection of many, chosen as in a file manager: click, Ctrl+click,
// Shift+click, Ctrl+A, the arrow keys with and without Shift, Space,
// Esc. Enter opens; other keys (F, Delete, Ctrl+E) are handed to the
// owner. Dragging a cell drags the selection: the owner hears the drag
// (OnDrag) and carries it out of the window. The selection logic is internal/selection's; the grid draws it
// and knows nothing of the app.
package thumbgrid

import (
	"image/color"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/selection"
	"easel/ui/widgets/dragsource"
)

// modifiers is the keyboard's modifiers now; tests replace it.
var modifiers = func() fyne.KeyModifier {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// Keys the grid hands to its owner.
const (
	KeyFavourite = "favourite" // F
	KeyDelete    = "delete"    // Delete
	KeyExport    = "export"    // Ctrl+E
	KeyUndo      = "undo"      // Ctrl+Z
	KeyCopy      = "copy"      // Ctrl+C
)

// Grid is a selectable virtual grid.
type Grid struct {
	widget.BaseWidget
	length func() int
	create func() fyne.CanvasObject
	update func(i int, content fyne.CanvasObject)
	// OnOpen is Enter or a double click on place i.
	OnOpen func(i int)
	// OnChanged is told when the selection or the cursor changed.
	OnChanged func()
	// OnKey gets the keys the grid does not handle itself.
	OnKey func(key string)
	// OnDrag hears a drag of the selection; nil: cells do not drag.
	OnDrag func(dragsource.Phase)
	// OnType gets a letter or digit typed on the grid that is not one of
	// its keys: the gallery starts a search with it.
	OnType func(r rune)

	sel  *selection.Set
	wrap *widget.GridWrap
	// drag follows the press under way, until it becomes a drag.
	drag dragsource.Tracker
	// pending is a press on a cell already in a multi-selection: the
	// cell becomes the selection alone when the button comes up, unless
	// the press became a drag of the whole selection (-1: none).
	pending int
}

// New makes a grid of length() places; create makes a cell's content,
// update shows place i in it.
func New(length func() int, create func() fyne.CanvasObject, update func(i int, content fyne.CanvasObject)) *Grid {
	g := &Grid{length: length, create: create, update: update, sel: selection.New(), pending: -1}
	g.wrap = widget.NewGridWrap(length,
		func() fyne.CanvasObject { return newCell(g, create()) },
		func(i widget.GridWrapItemID, o fyne.CanvasObject) {
			c := o.(*cell)
			c.place = i
			update(i, c.content)
			c.show(g.sel.Has(i), g.sel.Cursor() == i)
		})
	g.ExtendBaseWidget(g)
	return g
}

// Selection is the grid's selection.
func (g *Grid) Selection() *selection.Set { return g.sel }

// Select makes place i the selection alone, as a click does.
func (g *Grid) Select(i int) {
	g.sel.Click(i)
	g.changed(i)
}

// Reset forgets the selection: the places show other items now.
func (g *Grid) Reset() {
	g.sel.Reset()
	g.wrap.Refresh()
}

// Refresh draws the cells on screen again.
func (g *Grid) Refresh() { g.wrap.Refresh() }

// ScrollTo scrolls the grid until cell i is in view.
func (g *Grid) ScrollTo(i int) { g.wrap.ScrollTo(i) }

// ScrollToTop scrolls to the first place.
func (g *Grid) ScrollToTop() { g.wrap.ScrollToTop() }

// ScrollToBottom scrolls to the last place.
func (g *Grid) ScrollToBottom() { g.wrap.ScrollToBottom() }

// ColumnCount is how many places a row holds.
func (g *Grid) ColumnCount() int { return g.wrap.ColumnCount() }

// GetScrollOffset is how far the grid is scrolled.
func (g *Grid) GetScrollOffset() float32 { return g.wrap.GetScrollOffset() }

// click is a click on place i with the modifiers held.
func (g *Grid) click(i int, mod fyne.KeyModifier) {
	g.focus()
	switch {
	case mod&fyne.KeyModifierShift != 0:
		g.sel.Extend(i)
	case mod&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0:
		g.sel.Toggle(i)
	default:
		g.sel.Click(i)
	}
	g.changed(i)
}

func (g *Grid) changed(scrollTo int) {
	if scrollTo >= 0 {
		g.wrap.ScrollTo(scrollTo)
	}
	g.wrap.Refresh()
	if g.OnChanged != nil {
		g.OnChanged()
	}
}

func (g *Grid) focus() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(g); c != nil {
		c.Focus(g)
	}
}

// FocusGained implements fyne.Focusable.
func (g *Grid) FocusGained() { g.wrap.Refresh() }

// FocusLost implements fyne.Focusable.
func (g *Grid) FocusLost() { g.wrap.Refresh() }

// TypedRune implements fyne.Focusable: F marks the selection as
// favourites; with nothing selected, a letter or digit (F too) is handed
// to OnType, where a search begins.
func (g *Grid) TypedRune(r rune) {
	if (r == 'f' || r == 'F') && g.sel.Len() > 0 && g.OnKey != nil {
		g.OnKey(KeyFavourite)
		return
	}
	if (unicode.IsLetter(r) || unicode.IsDigit(r)) && g.OnType != nil {
		g.OnType(r)
	}
}

// TypedKey moves the cursor (Shift extends), Space toggles, Enter opens,
// Esc clears, Delete is handed over.
func (g *Grid) TypedKey(e *fyne.KeyEvent) {
	n := g.length()
	cols := max(1, g.wrap.ColumnCount())
	shift := modifiers()&fyne.KeyModifierShift != 0
	move := 0
	switch e.Name {
	case fyne.KeyLeft:
		move = -1
	case fyne.KeyRight:
		move = 1
	case fyne.KeyUp:
		move = -cols
	case fyne.KeyDown:
		move = cols
	case fyne.KeyHome:
		move = -n
	case fyne.KeyEnd:
		move = n
	case fyne.KeyPageUp:
		move = -cols * 4
	case fyne.KeyPageDown:
		move = cols * 4
	case fyne.KeySpace:
		if c := g.sel.Cursor(); c >= 0 {
			g.sel.Toggle(c)
			g.changed(c)
		}
		return
	case fyne.KeyReturn, fyne.KeyEnter:
		if c := g.sel.Cursor(); c >= 0 && g.OnOpen != nil {
			g.OnOpen(c)
		}
		return
	case fyne.KeyEscape:
		if g.drag.Cancel() && g.OnDrag != nil {
			g.OnDrag(dragsource.Cancelled) // Esc ends the drag, not the selection
			return
		}
		g.sel.Clear()
		g.changed(-1)
		return
	case fyne.KeyDelete:
		if g.OnKey != nil {
			g.OnKey(KeyDelete)
		}
		return
	default:
		return
	}
	g.sel.Move(move, n, shift)
	g.changed(g.sel.Cursor())
}

// TypedShortcut selects all (Ctrl+A) and hands Ctrl+E, Ctrl+Z and
// Ctrl+C over.
func (g *Grid) TypedShortcut(s fyne.Shortcut) {
	switch s := s.(type) {
	case *fyne.ShortcutSelectAll:
		g.sel.All(g.length())
		g.changed(-1)
	case *fyne.ShortcutUndo:
		if g.OnKey != nil {
			g.OnKey(KeyUndo)
		}
	case *fyne.ShortcutCopy:
		if g.OnKey != nil {
			g.OnKey(KeyCopy)
		}
	case *desktop.CustomShortcut:
		if s.KeyName == fyne.KeyE && s.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 && g.OnKey != nil {
			g.OnKey(KeyExport)
		}
	}
}

// CreateRenderer implements fyne.Widget.
func (g *Grid) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(g.wrap) }

// cell is one place: its content, with the selection and the cursor
// drawn over it; it takes the clicks.
type cell struct {
	widget.BaseWidget
	g       *Grid
	place   int
	content fyne.CanvasObject
	// frame and check mark a selected cell around its picture (a tint
	// over it would hide the colours being chosen between); border marks
	// the keyboard's cursor.
	frame  *canvas.Rectangle
	badge  *canvas.Circle
	check  *fyne.Container
	border *canvas.Rectangle
}

func newCell(g *Grid, content fyne.CanvasObject) *cell {
	c := &cell{g: g, content: content, place: -1}
	p := theme.Color(theme.ColorNamePrimary)
	c.frame = canvas.NewRectangle(color.Transparent)
	c.frame.StrokeColor, c.frame.StrokeWidth = p, 4
	c.frame.Hide()
	c.badge = canvas.NewCircle(p)
	icon := widget.NewIcon(theme.ConfirmIcon())
	c.check = container.NewVBox(container.NewHBox(layout.NewSpacer(), container.NewGridWrap(fyne.NewSize(24, 24), container.NewStack(c.badge, icon))), layout.NewSpacer())
	c.check.Hide()
	c.border = canvas.NewRectangle(color.Transparent)
	c.border.StrokeColor, c.border.StrokeWidth = theme.Color(theme.ColorNameForeground), 1
	c.border.Hide()
	c.ExtendBaseWidget(c)
	return c
}

// Refresh implements fyne.Widget: the frame, the tick and the cursor's
// border take the theme's colours again (Fyne refreshes every object when
// the theme changes; the rectangles keep the colour they were given).
func (c *cell) Refresh() {
	p := theme.ColorForWidget(theme.ColorNamePrimary, c)
	c.frame.StrokeColor, c.badge.FillColor = p, p
	c.border.StrokeColor = theme.ColorForWidget(theme.ColorNameForeground, c)
	c.BaseWidget.Refresh()
}

func (c *cell) show(selected, cursor bool) {
	c.frame.Hidden, c.check.Hidden = !selected, !selected
	c.border.Hidden = !cursor
	c.frame.Refresh()
	c.check.Refresh()
	c.border.Refresh()
}

// MouseDown implements desktop.Mouseable: a click, with its modifiers. A
// plain press inside a multi-selection waits for the release, so that
// the whole selection can be dragged.
func (c *cell) MouseDown(e *desktop.MouseEvent) {
	if e.Button != desktop.MouseButtonPrimary || c.place < 0 {
		return
	}
	g := c.g
	g.drag.End()
	g.pending = -1
	if e.Modifier == 0 && g.OnDrag != nil && g.sel.Len() > 1 && g.sel.Has(c.place) {
		g.pending = c.place
		g.focus()
		return
	}
	g.click(c.place, e.Modifier)
}

// MouseUp implements desktop.Mouseable: a press inside a multi-selection
// that did not drag is a click after all.
func (c *cell) MouseUp(e *desktop.MouseEvent) {
	g := c.g
	if e.Button == desktop.MouseButtonPrimary && g.pending == c.place && c.place >= 0 && !g.drag.Dragging() {
		g.pending = -1
		g.click(c.place, 0)
	}
}

// Dragged implements fyne.Draggable: past dragsource.Slop the press
// drags the selection, and every move after is handed to the owner.
func (c *cell) Dragged(e *fyne.DragEvent) {
	g := c.g
	if g.OnDrag == nil || g.sel.Len() == 0 {
		return
	}
	if p, ok := g.drag.Move(e); ok {
		g.pending = -1
		g.OnDrag(p)
	}
}

// DragEnd implements fyne.Draggable.
func (c *cell) DragEnd() {
	if c.g.drag.End() && c.g.OnDrag != nil {
		c.g.OnDrag(dragsource.Ended)
	}
}

// Tapped implements fyne.Tappable: a tap where there is no mouse (the
// test driver, touch) is a plain click.
func (c *cell) Tapped(*fyne.PointEvent) {
	if _, ok := fyne.CurrentApp().Driver().(desktop.Driver); !ok && c.place >= 0 {
		c.g.click(c.place, modifiers())
	}
}

// DoubleTapped implements fyne.DoubleTappable: it opens.
func (c *cell) DoubleTapped(*fyne.PointEvent) {
	if c.g.OnOpen != nil && c.place >= 0 {
		c.g.OnOpen(c.place)
	}
}

// CreateRenderer implements fyne.Widget.
func (c *cell) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(c.content, c.frame, c.border, container.NewPadded(c.check)))
}
