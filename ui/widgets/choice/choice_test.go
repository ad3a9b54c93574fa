package choice

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

var options = []string{"Day", "Week", "Month"}

// A Choice draws as Fyne's RadioGroup does, selected, unselected and
// disabled, in a row and in a column: it replaces one in dialogs.
func TestAChoiceLooksAsARadioGroup(t *testing.T) {
	test.NewTempApp(t)
	for _, horizontal := range []bool{false, true} {
		for _, disabled := range []bool{false, true} {
			ours, theirs := New(options, nil), widget.NewRadioGroup(options, nil)
			ours.Horizontal, theirs.Horizontal = horizontal, horizontal
			ours.SetSelected("Week")
			theirs.SetSelected("Week")
			if disabled {
				ours.Disable()
				theirs.Disable()
			}
			a, b := capture(t, ours), capture(t, theirs)
			if a.Bounds() != b.Bounds() {
				t.Fatalf("horizontal %v: drawn %v, a RadioGroup %v", horizontal, a.Bounds(), b.Bounds())
			}
			if n := differing(a, b); n > 0 {
				t.Errorf("horizontal %v, disabled %v: %d pixels differ from a RadioGroup's", horizontal, disabled, n)
			}
			if ours.MinSize() != theirs.MinSize() {
				t.Errorf("least size %v, a RadioGroup's %v", ours.MinSize(), theirs.MinSize())
			}
		}
	}
}

func capture(t *testing.T, o fyne.CanvasObject) image.Image {
	w := test.NewWindow(container.NewVBox(o))
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(400, 200))
	return w.Canvas().Capture()
}

func differing(a, b image.Image) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				n++
			}
		}
	}
	return n
}

// A tap selects an option and tells OnChanged; tapping it again clears
// it unless the choice is Required; a disabled choice takes no tap.
func TestATapSelectsAndARequiredChoiceStaysSelected(t *testing.T) {
	test.NewTempApp(t)
	var said []string
	c := New(options, func(s string) { said = append(said, s) })
	w := test.NewWindow(c)
	t.Cleanup(w.Close)
	test.Tap(c.items[1])
	test.Tap(c.items[1])
	c.Required = true
	test.Tap(c.items[2])
	test.Tap(c.items[2])
	if w.Canvas().Focused() != c.items[2] {
		t.Errorf("a tap on Month left the focus on %v", w.Canvas().Focused())
	}
	c.Disable()
	test.Tap(c.items[0])
	if got := len(said); got != 3 || said[0] != "Week" || said[1] != "" || said[2] != "Month" {
		t.Errorf("OnChanged heard %q, want Week, \"\", Month", said)
	}
	if c.Selected != "Month" {
		t.Errorf("selected %q, want Month", c.Selected)
	}
}

// With an option focused, Esc, Enter and Return reach the window's own
// key handler (which answers the dialog on top: a RadioGroup's item
// swallowed them), and the arrows move the selection and the focus.
func TestKeysInAChoiceReachTheWindowAndArrowsMove(t *testing.T) {
	test.NewTempApp(t)
	c := New(options, nil)
	c.Required = true
	c.SetSelected("Day")
	w := test.NewWindow(c)
	t.Cleanup(w.Close)
	var heard []fyne.KeyName
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) { heard = append(heard, k.Name) })
	w.Canvas().Focus(c.items[0])
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter} {
		key(w, k)
	}
	if len(heard) != 3 {
		t.Errorf("the window heard %v of Esc, Return and Enter", heard)
	}
	key(w, fyne.KeyDown)
	key(w, fyne.KeyRight)
	key(w, fyne.KeyDown) // past the last: stays
	if c.Selected != "Month" || w.Canvas().Focused() != c.items[2] {
		t.Errorf("after three steps down: %q selected, focus on %v", c.Selected, w.Canvas().Focused())
	}
	key(w, fyne.KeyUp)
	if c.Selected != "Week" || w.Canvas().Focused() != c.items[1] {
		t.Errorf("after a step up: %q selected", c.Selected)
	}
	w.Canvas().Focus(c.items[0])
	test.Type(c.items[0], " ")
	if c.Selected != "Day" {
		t.Errorf("Space on Day left %q selected", c.Selected)
	}
}

// key types k into the focused object, as the window's driver does.
func key(w fyne.Window, k fyne.KeyName) {
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: k})
}
