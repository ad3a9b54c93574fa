package kit

import (
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

// TypedKey hands Esc to OnEscape and every other key to the entry.
func (e *DialogEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.OnEscape != nil {
		e.OnEscape()
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
