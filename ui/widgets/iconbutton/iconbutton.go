// Package iconbutton is a button that shows only an icon and tells a
// screen reader its name. Fyne 2.8's accessibility reads a button's text,
// or for one without text its icon's file name ("content-undo.svg"):
// the toolbar's undo, zoom and move buttons said nothing a person could
// use, in no language.
package iconbutton

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Button is a widget.Button drawn with its icon alone, named for
// assistive technology by Name (the catalogue's words, in the user's
// language).
type Button struct {
	widget.Button
	Name string
}

// New makes an icon button named name that runs tapped.
func New(name string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{Name: name}
	b.Icon, b.OnTapped = icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// Low is New at low importance: drawn flat, as the toolbars' are.
func Low(name string, icon fyne.Resource, tapped func()) *Button {
	b := New(name, icon, tapped)
	b.Importance = widget.LowImportance
	return b
}

// AccessibilityLabel is the button's name.
func (b *Button) AccessibilityLabel() string { return b.Name }
