// Package kit holds the few small widget helpers every room of the window
// builds with — a prompt field, a quiet hint line, a form row with help —
// so the tabs look and read alike. It knows nothing of the app.
package kit

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
)

// HintLabel is a line of help text under a control. It is drawn in the
// theme's text colour: Fyne's low-importance grey (its "disabled"
// colour) was too faint to read on the dark theme's fields.
func HintLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.MediumImportance
	return l
}

// SetText sets l's text when it differs: a truncated label shapes its
// text again on every refresh, and some labels are set at every
// keystroke or for each of many items added.
func SetText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
}

// Heading is a section's bold title.
func Heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// KeyEntry is a masked field for an API key; Fyne's password entry has
// the reveal toggle built in.
func KeyEntry() *widget.Entry {
	e := widget.NewPasswordEntry()
	e.SetPlaceHolder(catalogue.T("sk-…"))
	return e
}

// FormItem is a form row with a line of help under the field.
func FormItem(label string, w fyne.CanvasObject, hint string) *widget.FormItem {
	item := widget.NewFormItem(label, w)
	item.HintText = hint
	return item
}

// Spacer pushes the widgets after it to the end of a box.
func Spacer() fyne.CanvasObject { return layout.NewSpacer() }

// ErrorText is one line for an error next to the control that caused it:
// the service's classified message and its hint, or the error's text.
func ErrorText(err error) string {
	var e *api.Error
	if errors.As(err, &e) {
		return e.Text()
	}
	return err.Error()
}

// Shorten folds white space and cuts s to at most n characters (not
// bytes: a cut never splits a letter), ending a cut one with "…".
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// ButtonBeside puts a button at the leading edge of content, keeping the
// button's own height however tall content grows (a result of several
// lines beside Test connection stretched the button with it).
func ButtonBeside(b fyne.CanvasObject, content fyne.CanvasObject) *fyne.Container {
	return container.NewBorder(nil, nil, container.NewVBox(b), nil, content)
}

// Ordinal is 1st, 2nd, 3rd, 4th…: how a prompt names an edit's inputs,
// so the strip and the gallery name them as the prompt does.
func Ordinal(n int) string {
	if catalogue.Current() != "en" {
		return catalogue.F("No. %d", n) // 第 n 张: no suffixes
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
