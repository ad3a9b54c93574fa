package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// newKeyEntry is a masked field for an API key; Fyne's password entry has
// the reveal toggle built in.
func newKeyEntry() *widget.Entry {
	e := widget.NewPasswordEntry()
	e.SetPlaceHolder("sk-…")
	return e
}

// formItem is a form row with a line of help under the field.
func formItem(label string, w fyne.CanvasObject, hint string) *widget.FormItem {
	item := widget.NewFormItem(label, w)
	item.HintText = hint
	return item
}
