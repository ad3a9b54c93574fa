package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// bannerKind names one of the messages the banner can hold; each shows at
// most once.
type bannerKind int

const (
	// bannerKeyring says the keyring is unavailable.
	bannerKeyring bannerKind = iota
	// bannerConfig says the profiles file was unreadable and moved aside.
	bannerConfig
)

// banner is the bar across the top of the window for problems that
// concern the whole app rather than one tab.
type banner struct {
	box  *fyne.Container
	rows map[bannerKind]*bannerRow
}

// bannerRow is one message with its action and a Dismiss button.
type bannerRow struct {
	obj    fyne.CanvasObject
	text   *widget.Label
	action *widget.Button
}

func newBanner() *banner {
	return &banner{box: container.NewVBox(), rows: map[bannerKind]*bannerRow{}}
}

// show puts up a message, or updates the one of its kind; action may be
// empty for a message with only Dismiss.
func (b *banner) show(kind bannerKind, text, action string, onAction func()) {
	row := b.rows[kind]
	if row == nil {
		row = &bannerRow{text: widget.NewLabel("")}
		row.text.Wrapping = fyne.TextWrapWord
		row.action = &widget.Button{Importance: widget.HighImportance}
		dismiss := &widget.Button{Icon: theme.CancelIcon(), Importance: widget.LowImportance, OnTapped: func() { b.hide(kind) }}
		bg := canvas.NewRectangle(warningTint())
		icon := widget.NewIcon(theme.WarningIcon())
		row.obj = container.NewStack(bg, container.NewBorder(nil, nil, icon, container.NewHBox(row.action, dismiss), row.text))
		b.rows[kind] = row
		b.box.Add(row.obj)
	}
	row.text.SetText(text)
	row.action.SetText(action)
	row.action.OnTapped = onAction
	if action == "" {
		row.action.Hide()
	} else {
		row.action.Show()
	}
	b.box.Refresh()
}

// hide takes a message down.
func (b *banner) hide(kind bannerKind) {
	if row := b.rows[kind]; row != nil {
		b.box.Remove(row.obj)
		delete(b.rows, kind)
	}
}

// text is the message of a kind, "" when it is not shown.
func (b *banner) text(kind bannerKind) string {
	if row := b.rows[kind]; row != nil {
		return row.text.Text
	}
	return ""
}

// warningTint is the theme's warning colour, faint enough to read black
// or white text on.
func warningTint() color.Color {
	r, g, bl, _ := theme.Color(theme.ColorNameWarning).RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 0x40}
}
