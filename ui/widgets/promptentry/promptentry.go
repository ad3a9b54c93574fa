// Package promptentry is the prompt field of Text to image and Edit: a
// multi-line entry in which Tab moves on to the next control, as in a
// form, instead of typing a tab character. A prompt never wants one, and
// a keyboard user must be able to leave the field for the options below
// it (a prompt once became "group test\t\t\t…"). Enter still breaks a
// line; Ctrl+Enter sends (the tab's shortcut).
package promptentry

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Entry is the prompt field.
type Entry struct {
	widget.Entry
}

// New makes a prompt field showing placeholder while empty, wrapping by
// word, five lines high.
func New(placeholder string) *Entry {
	e := &Entry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.PlaceHolder = placeholder
	e.ExtendBaseWidget(e)
	e.SetMinRowsVisible(5)
	return e
}

// CreateRenderer draws the field's background and outline in one pass;
// see frameRenderer.
func (e *Entry) CreateRenderer() fyne.WidgetRenderer {
	return newFrameRenderer(e.Entry.CreateRenderer())
}

// AcceptsTab implements fyne.Tabbable: Tab leaves the field.
func (e *Entry) AcceptsTab() bool { return false }
