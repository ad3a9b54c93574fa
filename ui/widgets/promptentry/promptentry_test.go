package promptentry

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// Tab moves from the prompt to the next control and types nothing;
// Enter still breaks a line.
func TestTabLeavesThePrompt(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("")
	p := New("describe")
	next := widget.NewEntry()
	w.SetContent(container.NewVBox(p, next))
	w.Canvas().Focus(p)
	test.Type(p, "a fox")
	p.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	test.Type(p, "at dusk")
	w.Canvas().FocusNext()
	if p.Text != "a fox\nat dusk" {
		t.Errorf("prompt %q", p.Text)
	}
	if w.Canvas().Focused() != next {
		t.Error("Tab did not move on to the next control")
	}
	if p.AcceptsTab() {
		t.Error("the prompt takes Tab as text")
	}
}
