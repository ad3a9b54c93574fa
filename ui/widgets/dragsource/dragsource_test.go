package dragsource

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A press becomes a drag past Slop: began once, moved after, ended on
// release; a tremor reports nothing.
func TestPhases(t *testing.T) {
	test.NewTempApp(t)
	var heard []Phase
	s := New(func(p Phase) { heard = append(heard, p) })
	s.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 2}})
	s.DragEnd()
	if len(heard) != 0 {
		t.Fatalf("a tremor reported %v", heard)
	}
	s.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 3, DY: -3}})
	s.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 50}})
	s.DragEnd()
	if want := []Phase{Began, Moved, Ended}; !slices.Equal(heard, want) {
		t.Errorf("heard %v, want %v", heard, want)
	}
}

// Laid over a button, the source takes drags and leaves the taps to it.
func TestTapsPassThrough(t *testing.T) {
	test.NewTempApp(t)
	tapped := false
	b := widget.NewButton("open", func() { tapped = true })
	s := New(nil)
	w := test.NewTempWindow(t, container.NewStack(b, s))
	w.Resize(fyne.NewSize(100, 40))
	test.TapCanvas(w.Canvas(), fyne.NewPos(50, 20))
	if !tapped {
		t.Error("the button under the source was not tapped")
	}
}
