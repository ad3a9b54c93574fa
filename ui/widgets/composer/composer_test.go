package composer

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// Enter sends, Shift+Enter adds a line, Esc stops.
func TestEnterSendsShiftEnterAddsALine(t *testing.T) {
	test.NewTempApp(t)
	e := New("Message — Enter sends, Shift+Enter adds a line")
	w := test.NewTempWindow(t, e)
	w.Canvas().Focus(e)
	sent, stopped := 0, 0
	e.OnSend = func() { sent++ }
	e.OnStop = func() { stopped++ }
	test.Type(e, "first")
	shift := fyne.KeyModifier(0)
	modifiers = func() fyne.KeyModifier { return shift }
	t.Cleanup(func() { modifiers = func() fyne.KeyModifier { return 0 } })
	shift = fyne.KeyModifierShift
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(e, "second")
	if e.Text != "first\nsecond" || sent != 0 {
		t.Fatalf("Shift+Enter: %q, sent %d", e.Text, sent)
	}
	shift = 0
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if sent != 1 || e.Text != "first\nsecond" {
		t.Errorf("Enter: sent %d, text %q", sent, e.Text)
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if stopped != 1 {
		t.Error("Esc did not stop")
	}
}
