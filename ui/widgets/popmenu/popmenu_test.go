package popmenu

import (
	"testing"

	"fyne.io/fyne/v2"
)

// A menu opens below its anchor from the anchor's left edge; at the
// window's right edge it lines up with the anchor's right edge instead,
// and at the bottom it opens above.
func TestMenuPositionStaysInTheWindow(t *testing.T) {
	canvas := fyne.NewSize(800, 600)
	menu := fyne.NewSize(200, 150)
	button := fyne.NewSize(32, 32)
	for _, c := range []struct {
		name string
		at   fyne.Position
		want fyne.Position
	}{
		{"room to spare", fyne.NewPos(100, 100), fyne.NewPos(100, 132)},
		{"at the right edge", fyne.NewPos(760, 100), fyne.NewPos(592, 132)},
		{"at the bottom", fyne.NewPos(100, 540), fyne.NewPos(100, 390)},
		{"bottom right", fyne.NewPos(760, 540), fyne.NewPos(592, 390)},
	} {
		if got := Position(c.at, button, menu, canvas); got != c.want {
			t.Errorf("%s: at %v, want %v", c.name, got, c.want)
		}
		got := Position(c.at, button, menu, canvas)
		if got.X < 0 || got.X+menu.Width > canvas.Width {
			t.Errorf("%s: the menu runs off the window: %v", c.name, got)
		}
	}
}
