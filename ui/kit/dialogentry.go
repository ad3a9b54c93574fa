package kit

import (
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// DialogEntry is a one-line entry for a form dialog. A focused entry
// takes every key, so Esc would never reach the window and close the
// dialog; this one hands Esc to OnEscape.
type DialogEntry struct {
	widget.Entry
	// OnEscape runs when Esc is typed in the entry.
	OnEscape func()
}

// NewDialogEntry makes an empty DialogEntry.
func NewDialogEntry() *DialogEntry {
	e := &DialogEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey hands Esc to OnEscape, or without one to the window's dialog
// keys, and every other key to the entry.
func (e *DialogEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.OnEscape != nil {
		e.OnEscape()
		return
	}
	if k.Name == fyne.KeyEscape && ToWindow(e, k) {
		return
	}
	e.Entry.TypedKey(k)
}

// AnswerKeys makes a form dialog's entries answer it: Enter submits (as
// the confirm button would, so validation still holds) and Esc cancels.
func AnswerKeys(d *dialog.FormDialog, entries ...*DialogEntry) {
	for _, e := range entries {
		e.OnSubmitted = func(string) { d.Submit() }
		e.OnEscape = d.Hide
	}
}

// escapes are what Esc does in a dialog whose buttons sit inside a
// widget (Settings' tabs), where the window's dialog keys cannot find its
// Close: the object in the dialog's content, and the action.
var escapes sync.Map

// SetEscape makes Esc in the dialog holding o run f; the dialog's
// closing should call ClearEscape(o).
func SetEscape(o fyne.CanvasObject, f func()) { escapes.Store(o, f) }

// ClearEscape forgets o's Esc action.
func ClearEscape(o fyne.CanvasObject) { escapes.Delete(o) }

// EscapeOf is o's Esc action, if one was set.
func EscapeOf(o fyne.CanvasObject) (func(), bool) {
	f, ok := escapes.Load(o)
	if !ok {
		return nil, false
	}
	return f.(func()), true
}

// Check is a check box for a dialog. A focused check box takes every key
// and uses only Space, so Esc and Enter never reached the dialog; this
// one hands them to the window's key handler, which answers the dialog
// on top.
type Check struct {
	widget.Check
}

// NewCheck makes a Check labelled label.
func NewCheck(label string, changed func(bool)) *Check {
	c := &Check{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey hands Esc and Enter to the window, every other key to the
// check box.
func (c *Check) TypedKey(k *fyne.KeyEvent) {
	if !ToWindow(c, k) {
		c.Check.TypedKey(k)
	}
}

// ToWindow gives Esc, Enter and Return typed in o to its canvas's own
// key handler (the window's dialog keys), reporting whether it did.
func ToWindow(o fyne.CanvasObject, k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyEscape && k.Name != fyne.KeyReturn && k.Name != fyne.KeyEnter {
		return false
	}
	app := fyne.CurrentApp()
	if app == nil {
		return false
	}
	c := app.Driver().CanvasForObject(o)
	if c == nil || c.OnTypedKey() == nil {
		return false
	}
	c.OnTypedKey()(k)
	return true
}
