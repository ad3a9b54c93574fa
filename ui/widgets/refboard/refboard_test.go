package refboard

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

func sixteen() []Card {
	cards := make([]Card, 16)
	for i := range cards {
		cards[i] = Card{Title: fmt.Sprintf("%d · ref-%d.png", i+1, i+1), Info: "800×600 · PNG"}
	}
	cards[0].Note = "the mask is painted on it"
	return cards
}

// Sixteen cards wrap to the board's width, each on the board, and the
// 12th dragged onto the 2nd's left half moves to second place, the bar
// showing where while it is dragged.
func TestACardDraggedMovesThere(t *testing.T) {
	test.NewTempApp(t)
	b := New([]string{"—", "Subject", "Style"})
	b.SetCards(sixteen())
	var moves [][2]int
	b.OnMove = func(from, to int) { moves = append(moves, [2]int{from, to}) }
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(4*(CellSize.Width+theme.Padding())+3*theme.Padding(), 1000))
	if got := Columns(b.Size().Width); got != 4 {
		t.Fatalf("%v wide holds %d columns", b.Size().Width, got)
	}
	if h := b.MinSize().Height; h < 4*CellSize.Height {
		t.Errorf("sixteen cards in four columns need four rows, the board asks %v", h)
	}
	from := b.cells[11]
	second := b.cells[1].Position()
	// From the 12th card's middle to a point in the 2nd card's left half.
	start := fyne.NewPos(CellSize.Width/2, CellSize.Height/2)
	target := second.AddXY(CellSize.Width/4, CellSize.Height/2).Subtract(from.Position())
	from.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: target}, Dragged: fyne.Delta{DX: target.X - start.X, DY: target.Y - start.Y}})
	if b.landing != 1 || !b.bar.Visible() {
		t.Errorf("while dragged, the card would land at %d, the bar shown %v", b.landing, b.bar.Visible())
	}
	from.DragEnd()
	if len(moves) != 1 || moves[0] != [2]int{11, 1} || b.bar.Visible() {
		t.Errorf("moves %v, bar shown %v", moves, b.bar.Visible())
	}
	// Past the last card's right half: the end.
	if at := b.Place(b.cells[15].Position().AddXY(CellSize.Width*0.9, 10)); at != 16 {
		t.Errorf("after the last card's right half, place %d", at)
	}
	// Dropped back where it was: no move.
	b.cells[3].Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(10, 10)}})
	b.cells[3].DragEnd()
	if len(moves) != 1 {
		t.Errorf("a card dropped on its own place moved: %v", moves)
	}
}

// Without a mouse: a card takes the keys and moves a place with Left and
// Right, a row with Up and Down; its role is chosen from its drop-down.
func TestACardMovesByKeysAndTakesARole(t *testing.T) {
	test.NewTempApp(t)
	b := New([]string{"—", "Subject", "Style"})
	b.SetCards(sixteen())
	var moves [][2]int
	b.OnMove = func(from, to int) { moves = append(moves, [2]int{from, to}) }
	var roles [][2]int
	b.OnRole = func(i, r int) { roles = append(roles, [2]int{i, r}) }
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(4*(CellSize.Width+theme.Padding()), 1000))
	test.Tap(b.cells[5])
	if w.Canvas().Focused() != b.cells[5] {
		t.Fatal("a tapped card does not take the keys")
	}
	b.cells[5].TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	b.cells[5].TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	b.cells[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft}) // the first goes nowhere
	if cols := Columns(b.Size().Width); len(moves) != 2 || moves[0] != [2]int{5, 6} || moves[1] != [2]int{5, 5 - cols} {
		t.Errorf("moves by keys %v", moves)
	}
	b.cells[2].role.SetSelected("Style")
	if len(roles) != 1 || roles[0] != [2]int{2, 2} || b.Cards()[2].Role != 2 {
		t.Errorf("roles %v", roles)
	}
}
