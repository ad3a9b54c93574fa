package imageform

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// shortPickers gives the form's pickers of short choices (Quality,
// Background, Format, Moderation, Images, Previews) one width, that of
// the longest choice any of them offers, instead of the form's whole
// width: a picker of "1" to "10" as wide as the size presets' long
// labels reads as empty, and with the prompt focused Fyne repaints every
// picker on each frame of the cursor's blink, in proportion to its area
// (docs/decisions.md, idle CPU). The width follows the choices as they
// are when laid out, so another language's words or a model's other
// qualities size it anew; a form narrower than that width gives them
// what it has.
type shortPickers struct {
	pickers []*widget.Select
}

// wrap places sel at the shared width, left-aligned in its form row.
func (s *shortPickers) wrap(sel *widget.Select) *fyne.Container {
	s.pickers = append(s.pickers, sel)
	return container.New(s, sel)
}

// width is the widest choice's text, with the room a Select keeps
// around its label and for its drop-down icon.
func (s *shortPickers) width() float32 {
	th := theme.Current()
	if len(s.pickers) > 0 {
		th = s.pickers[0].Theme()
	}
	text, pad := th.Size(theme.SizeNameText), th.Size(theme.SizeNameInnerPadding)
	var widest float32
	for _, p := range s.pickers {
		for _, o := range append([]string{p.Selected, p.PlaceHolder}, p.Options...) {
			widest = max(widest, fyne.MeasureText(o, text, fyne.TextStyle{}).Width)
		}
	}
	// The label's own padding either side, the Select's three inner
	// paddings, and its icon with one more.
	return widest + 2*pad + 3*pad + th.Size(theme.SizeNameInlineIcon) + pad
}

// MinSize is the picker's own: the shared width is what it is given
// when there is room, never a reason for the form to be wider.
func (s *shortPickers) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objects {
		m = m.Max(o.MinSize())
	}
	return m
}

// Layout sets each picker at the shared width, or the row's if narrower.
func (s *shortPickers) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	w := min(max(s.width(), s.MinSize(objects).Width), size.Width)
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(fyne.NewSize(w, size.Height))
	}
}
