package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

// The first window fits a laptop's work area with room for its frame,
// keeps its size where it fits, and scales with the screen's DPI.
func TestTheWindowFitsTheWorkArea(t *testing.T) {
	for _, c := range []struct {
		name         string
		window, work fyne.Size
		scale        float32
		want         fyne.Size
		fits         bool
	}{
		{"1366x768 with a 40 px taskbar", fyne.NewSize(1280, 800), fyne.NewSize(1366, 728), 1, fyne.NewSize(1280, 688), false},
		{"1280x800 with a dock", fyne.NewSize(1280, 800), fyne.NewSize(1280, 775), 1, fyne.NewSize(1264, 735), false},
		{"a large screen", fyne.NewSize(1280, 800), fyne.NewSize(2560, 1400), 1, fyne.NewSize(1280, 800), true},
		{"1920x1080 at 150 %", fyne.NewSize(1280, 800), fyne.NewSize(1920, 1032), 1.5, fyne.NewSize(1264, 648), false},
		{"no screen known", fyne.NewSize(1280, 800), fyne.NewSize(0, 0), 1, fyne.NewSize(1280, 800), true},
	} {
		got, fits := fitWithin(c.window, c.work, c.scale)
		if got != c.want || fits != c.fits {
			t.Errorf("%s: %v (fits %v), want %v (fits %v)", c.name, got, fits, c.want, c.fits)
		}
	}
}
