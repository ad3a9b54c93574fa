// Package refboard is Edit's reference board: every input at once, in a
// grid that wraps to its width, each card with its number, picture, name,
// size and role. A card dragged to another place moves there (the others
// close up, and a bar shows where it will land while it is dragged); a
// card with the keys moves with the arrow keys (Left and Right one place,
// Up and Down a row). The strip above the canvas shows sixteen inputs two
// at a time and moves one a step at a time; the board shows them all.
// It knows nothing of the app: it reports moves and roles.
package refboard

import (
	"image"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Card is one input as the board shows it.
type Card struct {
	Thumb image.Image
	// Title is its number and name, Info its size; Note marks a card
	// (the first's "the mask is painted on it").
	Title, Info, Note string
	// Role is the index of its role in the board's roles, 0 for the
	// first (none).
	Role int
}

// CellSize is one card's size: a thumbnail a designer can tell apart,
// two lines and the role's drop-down.
var CellSize = fyne.NewSize(176, 236)

// Board is the grid of cards.
type Board struct {
	widget.BaseWidget
	// OnMove moves the card at from to to (to counts the places with
	// the card taken out, as a list's move does). OnRole sets card i's
	// role to the index of one of the roles.
	OnMove func(from, to int)
	OnRole func(i, role int)

	roles []string
	cards []Card
	cells []*cell
	// landing is where a dragged card would go (-1: no drag): the bar
	// before that place shows it.
	landing int
	bar     *canvas.Rectangle
	// width is the width last laid out at, for MinSize's rows.
	width float32
}

// New makes an empty board whose cards offer roles (the first: none).
func New(roles []string) *Board {
	b := &Board{roles: roles, landing: -1}
	b.ExtendBaseWidget(b)
	return b
}

// SetCards shows cards, in order.
func (b *Board) SetCards(cards []Card) {
	b.cards = cards
	for len(b.cells) < len(cards) {
		b.cells = append(b.cells, newCell(b, len(b.cells)))
	}
	b.cells = b.cells[:len(cards)]
	for i, c := range cards {
		b.cells[i].show(c)
	}
	b.Refresh()
}

// Cards are the cards shown.
func (b *Board) Cards() []Card { return b.cards }

// Columns is how many cards a row holds at width.
func Columns(width float32) int {
	pad := theme.Padding()
	return max(1, int((width+pad)/(CellSize.Width+pad)))
}

// Place is the place (0 to the number of cards) a card dropped at pos,
// in the board's coordinates, lands before: the nearer side of the card
// under it.
func (b *Board) Place(pos fyne.Position) int {
	pad := theme.Padding()
	cols := Columns(b.Size().Width)
	col := int(math.Floor(float64((pos.X + pad/2) / (CellSize.Width + pad))))
	row := int(math.Floor(float64((pos.Y + pad/2) / (CellSize.Height + pad))))
	col, row = min(max(col, 0), cols-1), max(row, 0)
	at := row*cols + col
	x := pos.X - float32(col)*(CellSize.Width+pad)
	if x > CellSize.Width/2 {
		at++
	}
	return min(max(at, 0), len(b.cards))
}

// origin is where card i is drawn.
func (b *Board) origin(i int) fyne.Position {
	pad := theme.Padding()
	cols := Columns(b.Size().Width)
	return fyne.NewPos(float32(i%cols)*(CellSize.Width+pad), float32(i/cols)*(CellSize.Height+pad))
}

// drag follows card i dragged to pos (the board's coordinates).
func (b *Board) drag(pos fyne.Position) {
	if at := b.Place(pos); at != b.landing {
		b.landing = at
		b.Refresh()
	}
}

// drop moves card from to where it was dragged.
func (b *Board) drop(from int) {
	to := b.landing
	b.landing = -1
	b.Refresh()
	if to < 0 {
		return
	}
	if to > from {
		to-- // the places after from close up
	}
	if to != from && b.OnMove != nil {
		b.OnMove(from, to)
	}
}

// step moves card from by n places, within the board.
func (b *Board) step(from, n int) {
	to := min(max(from+n, 0), len(b.cards)-1)
	if to != from && b.OnMove != nil {
		b.OnMove(from, to)
	}
}

// Focus gives card i the keys (after a move by keys, the card moved).
func (b *Board) Focus(i int) {
	if i < 0 || i >= len(b.cells) {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil {
		c.Focus(b.cells[i])
	}
}

// MinSize is the rows the cards need at the width last laid out.
func (b *Board) MinSize() fyne.Size {
	b.ExtendBaseWidget(b)
	cols := Columns(b.width)
	rows := (len(b.cards) + cols - 1) / cols
	pad := theme.Padding()
	return fyne.NewSize(CellSize.Width, max(0, float32(rows)*(CellSize.Height+pad)-pad))
}

// CreateRenderer implements fyne.Widget.
func (b *Board) CreateRenderer() fyne.WidgetRenderer {
	b.bar = canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))
	b.bar.Hide()
	return &boardRenderer{b: b}
}

type boardRenderer struct{ b *Board }

func (r *boardRenderer) Layout(size fyne.Size) {
	b := r.b
	grew := Columns(size.Width) != Columns(b.width)
	b.width = size.Width
	for i, c := range b.cells {
		c.Move(b.origin(i))
		c.Resize(CellSize)
	}
	if b.landing >= 0 && len(b.cells) > 0 {
		at := b.origin(b.landing)
		if b.landing > 0 && b.landing%Columns(size.Width) == 0 {
			// The place after a row's last card: the bar at its end.
			at = b.origin(b.landing-1).AddXY(CellSize.Width+theme.Padding(), 0)
		}
		b.bar.Move(at.SubtractXY(theme.Padding()/2+2, 0))
		b.bar.Resize(fyne.NewSize(4, CellSize.Height))
		b.bar.Show()
	} else {
		b.bar.Hide()
	}
	if grew {
		// Another count of columns: another count of rows.
		defer b.Refresh()
	}
}

func (r *boardRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *boardRenderer) Refresh() {
	r.b.bar.FillColor = theme.Color(theme.ColorNamePrimary)
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

func (r *boardRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, 0, len(r.b.cells)+1)
	for _, c := range r.b.cells {
		objs = append(objs, c)
	}
	return append(objs, r.b.bar)
}

func (r *boardRenderer) Destroy() {}

// cell is one card: dragged, it moves; focused, the keys move it.
type cell struct {
	widget.BaseWidget
	b       *Board
	at      int
	thumb   *canvas.Image
	title   *widget.Label
	info    *widget.Label
	note    *widget.Label
	role    *widget.Select
	frame   *canvas.Rectangle
	focused bool
}

func newCell(b *Board, at int) *cell {
	c := &cell{b: b, at: at,
		thumb: &canvas.Image{FillMode: canvas.ImageFillContain, ScaleMode: canvas.ImageScaleSmooth},
		title: &widget.Label{Truncation: fyne.TextTruncateEllipsis, TextStyle: fyne.TextStyle{Bold: true}},
		info:  &widget.Label{Truncation: fyne.TextTruncateEllipsis},
		note:  &widget.Label{Truncation: fyne.TextTruncateEllipsis, Importance: widget.HighImportance},
	}
	c.role = widget.NewSelect(b.roles, func(s string) {
		for i, r := range b.roles {
			if r == s && c.at < len(b.cards) && b.cards[c.at].Role != i {
				b.cards[c.at].Role = i
				if b.OnRole != nil {
					b.OnRole(c.at, i)
				}
			}
		}
	})
	c.thumb.SetMinSize(fyne.NewSize(CellSize.Width-2*theme.Padding(), 120))
	c.ExtendBaseWidget(c)
	return c
}

// show draws card.
func (c *cell) show(card Card) {
	c.thumb.Image = card.Thumb
	c.thumb.Refresh()
	c.title.SetText(card.Title)
	c.info.SetText(card.Info)
	c.note.SetText(card.Note)
	c.note.Hidden = card.Note == ""
	if card.Role >= 0 && card.Role < len(c.b.roles) && c.role.Selected != c.b.roles[card.Role] {
		c.role.SetSelected(c.b.roles[card.Role])
	}
}

// Dragged implements fyne.Draggable: the bar shows where the card goes.
func (c *cell) Dragged(e *fyne.DragEvent) {
	c.b.drag(c.Position().Add(e.Position))
}

// DragEnd implements fyne.Draggable.
func (c *cell) DragEnd() {
	c.b.drop(c.at)
}

// Tapped implements fyne.Tappable: the card takes the keys.
func (c *cell) Tapped(*fyne.PointEvent) { c.b.Focus(c.at) }

// Cursor implements desktop.Cursorable: a hand says it can be moved.
func (c *cell) Cursor() desktop.Cursor { return desktop.PointerCursor }

// FocusGained implements fyne.Focusable.
func (c *cell) FocusGained() { c.focused = true; c.Refresh() }

// FocusLost implements fyne.Focusable.
func (c *cell) FocusLost() { c.focused = false; c.Refresh() }

// TypedRune implements fyne.Focusable.
func (c *cell) TypedRune(rune) {}

// TypedKey moves the card: Left and Right one place, Up and Down a row.
func (c *cell) TypedKey(e *fyne.KeyEvent) {
	cols := Columns(c.b.Size().Width)
	n := map[fyne.KeyName]int{fyne.KeyLeft: -1, fyne.KeyRight: 1, fyne.KeyUp: -cols, fyne.KeyDown: cols}[e.Name]
	if n != 0 {
		c.b.step(c.at, n)
	}
}

// CreateRenderer implements fyne.Widget.
func (c *cell) CreateRenderer() fyne.WidgetRenderer {
	c.frame = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	c.frame.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	c.frame.StrokeWidth = 2
	body := container.NewBorder(nil, container.NewVBox(c.title, c.info, c.note, c.role), nil, nil, c.thumb)
	return &cellRenderer{c: c, box: container.NewStack(c.frame, container.NewPadded(body), layout.NewSpacer())}
}

type cellRenderer struct {
	c   *cell
	box *fyne.Container
}

func (r *cellRenderer) Layout(s fyne.Size) { r.box.Resize(s) }
func (r *cellRenderer) MinSize() fyne.Size { return CellSize }
func (r *cellRenderer) Refresh() {
	f := r.c.frame
	f.FillColor = theme.Color(theme.ColorNameInputBackground)
	if r.c.focused {
		f.StrokeColor = theme.Color(theme.ColorNameFocus)
	} else {
		f.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	}
	f.Refresh()
}
func (r *cellRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.box} }
func (r *cellRenderer) Destroy()                     {}
