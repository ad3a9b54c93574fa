package searchentry

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// Down and Enter leave the search for its results; Enter still submits;
// other keys edit the text as in any entry.
func TestDownAndEnterLeaveTheSearch(t *testing.T) {
	test.NewTempApp(t)
	var typed string
	left, submitted := 0, 0
	e := New("Search", func(s string) { typed = s })
	e.OnSubmitted = func(string) { submitted++ }
	e.OnLeave = func() { left++ }
	w := test.NewTempWindow(t, e)
	w.Canvas().Focus(e)
	test.Type(e, "fox")
	if typed != "fox" {
		t.Fatalf("typed %q", typed)
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if left != 2 || submitted != 1 {
		t.Errorf("left %d times, submitted %d", left, submitted)
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	if e.Text != "fo" || left != 2 {
		t.Errorf("Backspace: %q, left %d", e.Text, left)
	}
}
