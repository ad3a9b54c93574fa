package edit

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"

	"easel/internal/catalogue"
	"easel/internal/roles"
	"easel/ui/kit"
	"easel/ui/widgets/iconbutton"
	"easel/ui/widgets/refboard"
)

// refBoard is the strip's large form: every input at once in a grid over
// the window, dragged into order, each with its role. The strip shows
// two or three tiles at a time and moves one a step; sixteen references
// want an overview (#57). It reads and changes the strip, which owns the
// inputs; it owns its dialog while open.
type refBoard struct {
	strip *refStrip
	win   fyne.Window
	board *refboard.Board
	dlg   dialog.Dialog
}

// roleNames are the roles as the board's drop-downs offer them, the
// first for none, in roles.All's order after it.
func roleNames() []string {
	return []string{catalogue.T("No role"), catalogue.T("Subject"), catalogue.T("Style"), catalogue.T("Product"),
		catalogue.T("Background"), catalogue.T("Person"), catalogue.T("Logo")}
}

// roleIndex is r's place in roleNames.
func roleIndex(r roles.Role) int {
	for i, have := range roles.All() {
		if have == r {
			return i + 1
		}
	}
	return 0
}

// open shows the board over the window.
func (b *refBoard) open() {
	b.board = refboard.New(roleNames())
	b.board.OnMove = func(from, to int) {
		b.strip.moveTo(from, to)
		b.board.Focus(to) // the keys stay with the card moved
	}
	b.board.OnRole = func(i, role int) {
		if i < len(b.strip.inputs) {
			if role > 0 {
				b.strip.inputs[i].Role = roles.All()[role-1]
			} else {
				b.strip.inputs[i].Role = roles.None
			}
			b.strip.update() // the tile says it, the session keeps it
		}
	}
	hint := kit.HintLabel(catalogue.T("Drag a picture to its place, or click it and use the arrow keys; the prompt can say “the first”, “the second”. The first is the one the mask is painted on. A role tells the model what each picture is for."))
	body := container.NewBorder(hint, nil, nil, nil, container.NewVScroll(b.board))
	b.dlg = dialog.NewCustom(catalogue.T("Reference board"), catalogue.T("Close"), body, b.win)
	b.dlg.SetOnClosed(func() { b.board, b.dlg = nil, nil })
	b.sync()
	size := b.win.Canvas().Size()
	b.dlg.Resize(fyne.NewSize(size.Width*0.9, size.Height*0.9))
	b.dlg.Show()
}

// sync shows the strip's inputs on the board while it is open.
func (b *refBoard) sync() {
	if b.board == nil {
		return
	}
	cards := make([]refboard.Card, len(b.strip.inputs))
	for i, in := range b.strip.inputs {
		cards[i] = refboard.Card{Thumb: in.Thumb, Title: catalogue.F("%d · %s", i+1, in.Image.Name), Info: describe(in), Role: roleIndex(in.Role)}
	}
	if len(cards) > 0 {
		cards[0].Note = catalogue.T("mask canvas") // as its tile in the strip says
	}
	b.board.SetCards(cards)
}

// button opens the board: an icon beside the strip's count, so the strip
// keeps its height (and the canvas its place).
func (b *refBoard) button() *iconbutton.Button {
	return iconbutton.New(catalogue.T("Show every input on the reference board"), theme.GridIcon(), b.open)
}
