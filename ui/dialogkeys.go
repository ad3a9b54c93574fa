package ui

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/ui/kit"
)

// answerDialog gives the dialog on top the keyboard: Esc cancels or
// closes it, Enter does its default, safe action. A dialog's buttons say
// which is which by their importance: where one is destructive (Danger
// or Warning) Enter takes the safe one; otherwise Enter takes the
// highlighted one; a dialog with one button takes it for either key. It
// reports whether the key was a dialog's.
func answerDialog(win fyne.Window, k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyEscape && k.Name != fyne.KeyReturn && k.Name != fyne.KeyEnter {
		return false
	}
	top := win.Canvas().Overlays().Top()
	if top == nil {
		return false
	}
	var buttons []*widget.Button
	var esc func()
	collectButtons(top, &buttons, &esc)
	if esc != nil && k.Name == fyne.KeyEscape {
		esc()
		return true
	}
	if len(buttons) == 0 {
		return false
	}
	var high, dismiss, destructive *widget.Button
	for _, b := range buttons {
		switch b.Importance {
		case widget.DangerImportance, widget.WarningImportance:
			destructive = b
		case widget.HighImportance:
			high = b
		default:
			if dismiss == nil {
				dismiss = b
			}
		}
	}
	var pick *widget.Button
	switch {
	case len(buttons) == 1:
		pick = buttons[0]
	case k.Name == fyne.KeyEscape && cancelOf(buttons) != nil:
		pick = cancelOf(buttons)
	case k.Name == fyne.KeyEscape && dismiss != nil:
		pick = dismiss
	case k.Name == fyne.KeyEscape:
		pick = high // "Don't send": the safe answer is the highlighted one
	case destructive != nil && high != nil:
		pick = high
	case destructive != nil:
		pick = dismiss
	default:
		pick = high
	}
	if pick == nil || pick.OnTapped == nil {
		return false
	}
	pick.OnTapped()
	return true
}

// collectButtons gathers the visible, enabled buttons of a dialog, in
// its containers' order, and the Esc action it named with
// kit.SetEscape (for buttons it keeps inside a widget, where this walk
// does not look).
func collectButtons(o fyne.CanvasObject, out *[]*widget.Button, esc *func()) {
	if o == nil || !o.Visible() {
		return
	}
	if f, ok := kit.EscapeOf(o); ok && *esc == nil {
		*esc = f
	}
	switch x := o.(type) {
	case *widget.PopUp:
		collectButtons(x.Content, out, esc)
	case *fyne.Container:
		for _, c := range x.Objects {
			collectButtons(c, out, esc)
		}
	case *widget.Button:
		if !x.Disabled() {
			*out = append(*out, x)
		}
	default:
		// A modal dialog sits in Fyne's overlay container, whose type is
		// internal but whose Content field is exported.
		if c, ok := overlayContent(o); ok {
			collectButtons(c, out, esc)
		}
	}
}

// overlayContent reads the Content of Fyne's internal overlay container,
// the one wrapper between the canvas's overlay stack and a dialog.
func overlayContent(o fyne.CanvasObject) (fyne.CanvasObject, bool) {
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	f := v.Elem().FieldByName("Content")
	if !f.IsValid() || !f.CanInterface() {
		return nil, false
	}
	c, ok := f.Interface().(fyne.CanvasObject)
	return c, ok && c != nil
}

// cancelOf is the button that says Cancel or Close, nil for none: what
// Esc means wherever a dialog has one, whatever the others' importance
// ("Send anyway" beside "Cancel" is no safe answer).
func cancelOf(buttons []*widget.Button) *widget.Button {
	for _, b := range buttons {
		if b.Text == catalogue.T("Cancel") || b.Text == catalogue.T("Close") {
			return b
		}
	}
	return nil
}
