package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// newPromptEntry is the multi-line, wrapping text field used for prompts
// and the chat composer. Ctrl+Enter is a window shortcut (see menu.go), so
// it works here without the entry knowing about it.
func newPromptEntry(placeholder string) *widget.Entry {
	e := widget.NewMultiLineEntry()
	e.Wrapping = fyne.TextWrapWord
	e.SetPlaceHolder(placeholder)
	e.SetMinRowsVisible(5)
	return e
}

// hintLabel is a small, quiet line of help text under a control.
func hintLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.LowImportance
	return l
}
