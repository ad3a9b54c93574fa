package iconbutton

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// A screen reader hears the button's name, not its icon's file; the
// button still taps and draws as Fyne's.
func TestAScreenReaderHearsTheName(t *testing.T) {
	test.NewTempApp(t)
	tapped := 0
	b := Low("Undo", theme.ContentUndoIcon(), func() { tapped++ })
	var a fyne.Accessible = b
	if a.AccessibilityLabel() != "Undo" || a.AccessibilityRole() != fyne.AccessibleRoleButton {
		t.Errorf("said %q as %q", a.AccessibilityLabel(), a.AccessibilityRole())
	}
	test.Tap(b)
	if tapped != 1 {
		t.Errorf("tapped %d times", tapped)
	}
	if b.MinSize().Width <= 0 {
		t.Error("the button draws nothing")
	}
}
