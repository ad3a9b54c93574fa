// Package chrome is the window's frame around the tabs: the banner across
// the top for problems that concern the whole app, and the status bar
// along the bottom with the profile in use. It knows nothing of the app:
// the window tells it what to show and what to do when clicked.
package chrome

import (
	"image/color"

	"easel/internal/catalogue"
	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// BannerKind names one of the messages the banner can hold; each shows at
// most once.
type BannerKind int

const (
	// BannerKeyring says the keyring is unavailable.
	BannerKeyring BannerKind = iota
	// BannerConfig says the profiles file could not be read, or not all
	// of it.
	BannerConfig
	// BannerLibrary says what the gallery found as it opened: its images
	// folder missing, a newer Easel's library, a read-only index.
	BannerLibrary
	// BannerInterrupted says jobs were cut off by a kill or a close and
	// are listed, with Retry, where they were sent from.
	BannerInterrupted
)

// Banner is the bar across the top of the window for problems that
// concern the whole app rather than one tab.
type Banner struct {
	// Box is the banner, for the window to lay out above the tabs.
	Box  *fyne.Container
	rows map[BannerKind]*bannerRow
	// OnResize is called when a message comes or goes, so the window
	// lays the tabs out again below the banner's new height: refreshing
	// the banner alone leaves the tabs where they were, under it.
	OnResize func()
}

// bannerRow is one message with its action and a Dismiss button.
type bannerRow struct {
	obj    fyne.CanvasObject
	text   *widget.Label
	action *widget.Button
}

// NewBanner makes an empty banner.
func NewBanner() *Banner {
	return &Banner{Box: container.NewVBox(), rows: map[BannerKind]*bannerRow{}}
}

// Show puts up a message, or updates the one of its kind; action may be
// empty for a message with only Dismiss.
func (b *Banner) Show(kind BannerKind, text, action string, onAction func()) {
	row := b.rows[kind]
	if row == nil {
		row = &bannerRow{text: widget.NewLabel("")}
		row.text.Wrapping = fyne.TextWrapWord
		row.action = &widget.Button{Importance: widget.HighImportance}
		dismiss := iconbutton.Low(catalogue.T("Dismiss"), theme.CancelIcon(), func() { b.Hide(kind) })
		bg := canvas.NewRectangle(warningTint())
		icon := widget.NewIcon(theme.WarningIcon())
		row.obj = container.NewStack(bg, container.NewBorder(nil, nil, icon, container.NewHBox(row.action, dismiss), row.text))
		b.rows[kind] = row
		b.Box.Add(row.obj)
		defer b.resized()
	}
	row.text.SetText(text)
	row.action.SetText(action)
	row.action.OnTapped = onAction
	if action == "" {
		row.action.Hide()
	} else {
		row.action.Show()
	}
	b.Box.Refresh()
}

// Hide takes a message down.
func (b *Banner) Hide(kind BannerKind) {
	if row := b.rows[kind]; row != nil {
		b.Box.Remove(row.obj)
		delete(b.rows, kind)
		b.resized()
	}
}

func (b *Banner) resized() {
	if b.OnResize != nil {
		b.OnResize()
	}
}

// Action is the action button of a message, for tests; nil when the
// message is not shown.
func (b *Banner) Action(kind BannerKind) *widget.Button {
	if row := b.rows[kind]; row != nil && row.action.Visible() {
		return row.action
	}
	return nil
}

// Text is the message of a kind, "" when it is not shown.
func (b *Banner) Text(kind BannerKind) string {
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
