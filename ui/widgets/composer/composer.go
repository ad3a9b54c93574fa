// Package composer is the message field of a chat: multi-line, where
// Enter sends and Shift+Enter starts a new line, as in every chat client,
// and Esc stops the reply being written. It is a widget.Entry with those
// keys; it knows nothing of the app.
package composer

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// modifiers is the keyboard's modifiers now; tests replace it.
var modifiers = func() fyne.KeyModifier {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// Entry is a chat's message field.
type Entry struct {
	widget.Entry
	// OnSend is Enter; OnStop is Esc.
	OnSend func()
	OnStop func()
}

// New makes a message field with its placeholder.
func New(placeholder string) *Entry {
	e := &Entry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.PlaceHolder = placeholder
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey sends on Enter, adds a line on Shift+Enter, stops on Esc.
func (e *Entry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if modifiers()&fyne.KeyModifierShift == 0 {
			if e.OnSend != nil {
				e.OnSend()
			}
			return
		}
	case fyne.KeyEscape:
		if e.OnStop != nil {
			e.OnStop()
		}
		return
	}
	e.Entry.TypedKey(k)
}
