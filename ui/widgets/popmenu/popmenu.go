// Package popmenu opens a pop-up menu beside what it belongs to, kept
// inside the window: Fyne opens one at a point and lets it run off the
// edge. The chat transcript and lists use it; it knows nothing of Easel.
package popmenu

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// ShowBelow opens menu under anchor, kept inside the window: a
// message's "…" sits at the window's right edge, and a menu opened at
// its left corner ran off the screen. The menu's right edge then lines up
// with the anchor's; near the bottom it opens above the anchor.
func ShowBelow(menu *fyne.Menu, anchor fyne.CanvasObject) {
	c := fyne.CurrentApp().Driver().CanvasForObject(anchor)
	if c == nil {
		return
	}
	pop := widget.NewPopUpMenu(menu, c)
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(anchor)
	pop.ShowAtPosition(Position(at, anchor.Size(), pop.MinSize(), c.Size()))
}

// Position is where a menu of size menu opens for an anchor at at
// of size anchor, on a canvas of size canvas: below the anchor from its
// left edge when it fits, else right-aligned to the anchor (or the
// canvas), and above the anchor when there is no room below.
func Position(at fyne.Position, anchor, menu, canvas fyne.Size) fyne.Position {
	x := at.X
	if x+menu.Width > canvas.Width {
		x = max(0, min(at.X+anchor.Width, canvas.Width)-menu.Width)
	}
	y := at.Y + anchor.Height
	if y+menu.Height > canvas.Height && at.Y-menu.Height >= 0 {
		y = at.Y - menu.Height
	}
	return fyne.NewPos(x, y)
}
