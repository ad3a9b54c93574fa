package kit

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// In a form dialog, Enter in the entry submits and Esc cancels, though
// the focused entry takes every key.
func TestDialogEntryAnswersTheDialog(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(nil)
	defer w.Close()
	w.Resize(fyne.NewSize(600, 400))
	for _, c := range []struct {
		key  fyne.KeyName
		want string
	}{{fyne.KeyReturn, "submitted"}, {fyne.KeyEscape, "cancelled"}} {
		got := "open"
		e := NewDialogEntry()
		d := dialog.NewForm("Rename", "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("Title", e)}, func(ok bool) {
			got = map[bool]string{true: "submitted", false: "cancelled"}[ok]
		}, w)
		AnswerKeys(d, e)
		d.Show()
		w.Canvas().Focus(e)
		test.Type(e, "x")
		w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: c.key})
		if got != c.want || w.Canvas().Overlays().Top() != nil {
			t.Errorf("%s: the dialog was %s, open on top: %v", c.key, got, w.Canvas().Overlays().Top() != nil)
		}
	}
}

// A focused check box hands Esc and Enter to the window's key handler
// (which answers the dialog on top), and keeps Space for itself.
func TestACheckHandsEscAndEnterToTheWindow(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("check")
	var got []fyne.KeyName
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) { got = append(got, k.Name) })
	c := NewCheck("Keep", nil)
	w.SetContent(c)
	w.Canvas().Focus(c)
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn, fyne.KeySpace} {
		c.TypedKey(&fyne.KeyEvent{Name: k})
	}
	if len(got) != 2 || got[0] != fyne.KeyEscape || got[1] != fyne.KeyReturn {
		t.Errorf("the window heard %v", got)
	}
	e := NewDialogEntry()
	w.SetContent(e)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(got) != 3 {
		t.Errorf("an entry without OnEscape kept Esc: %v", got)
	}
}
