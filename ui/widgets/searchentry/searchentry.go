// Package searchentry is a one-line search field that hands the keyboard
// on: Down, like Enter, moves to what the search found, as a search box
// above a list does in desktop apps. A plain widget.Entry keeps Down for
// itself and does nothing with it on one line.
package searchentry

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Entry is a search field; OnLeave, when set, is called for Down and
// Enter (after OnSubmitted) to move the focus to the results.
type Entry struct {
	widget.Entry
	OnLeave func()
}

// New makes a search field with placeholder, calling changed as it is
// typed in.
func New(placeholder string, changed func(string)) *Entry {
	e := &Entry{}
	e.PlaceHolder, e.OnChanged = placeholder, changed
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey moves to the results on Down and Enter; other keys are the
// entry's.
func (e *Entry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyDown:
		if e.OnLeave != nil {
			e.OnLeave()
			return
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		e.Entry.TypedKey(k) // OnSubmitted
		if e.OnLeave != nil {
			e.OnLeave()
		}
		return
	}
	e.Entry.TypedKey(k)
}
