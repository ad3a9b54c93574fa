package reorder

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestStepsRoundToWholeRows(t *testing.T) {
	for _, c := range []struct {
		dy   float32
		want int
	}{{0, 0}, {20, 0}, {31, 1}, {-31, -1}, {150, 3}, {-170, -3}} {
		if got := Steps(c.dy, 60); got != c.want {
			t.Errorf("Steps(%v, 60) = %d, want %d", c.dy, got, c.want)
		}
	}
	if Steps(100, 0) != 0 {
		t.Error("a row of no height moved")
	}
}

// A drag of two and a quarter rows down moves the row two places, showing
// where it lands as it goes; Up, Down and Delete do the same by keys.
func TestDragAndKeysMoveTheRow(t *testing.T) {
	test.NewTempApp(t)
	var moved []int
	var showing []int
	removed := 0
	h := New(func() float32 { return 40 }, func(n int) { moved = append(moved, n) })
	h.OnDragging = func(n int) { showing = append(showing, n) }
	h.OnRemove = func() { removed++ }
	for range 4 {
		h.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(0, 20)})
	}
	h.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(0, 10)})
	h.DragEnd()
	if len(moved) != 1 || moved[0] != 2 {
		t.Fatalf("a drag of 90 units over 40-unit rows moved %v, want 2", moved)
	}
	if showing[len(showing)-2] != 2 || showing[len(showing)-1] != 0 {
		t.Errorf("while dragging it showed %v, want 2 and then nothing", showing)
	}
	h.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	h.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	h.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if len(moved) != 3 || moved[1] != -1 || moved[2] != 1 || removed != 1 {
		t.Errorf("keys moved %v and removed %d", moved, removed)
	}
	h.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(0, 10)})
	h.DragEnd()
	if len(moved) != 3 {
		t.Error("a drag of a quarter row moved the row")
	}
}
