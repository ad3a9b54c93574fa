package board

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The board's cells are laid out as a grid that fits the dialog: as many
// equal columns as are at least a cell's width (all the cells' when they
// fit, so three models are three columns on screen), each cell's picture
// as wide as its column. A fixed three columns made each cell as wide as
// its longest line, and the third of three was off the dialog's edge
// (#57). Larger on demand: the cell's width is the user's choice.

// Cell widths the board offers, in units: the smallest fits three cells
// side by side at 1024x700, the others are larger on demand.
const (
	cellSmall  = 220
	cellMedium = 360
	cellLarge  = 560
)

// pictureMin is the height a cell's picture asks for; the rest of its
// height is its title, its notes (notesHeight, scrolled) and actions.
const (
	pictureMin  = 200
	notesHeight = 96
)

// fitGrid is the layout; width is the smallest a column may be, tall
// the tallest a picture is made (a row of pictures as wide as their
// columns would run off the dialog's foot), 0 for no limit.
type fitGrid struct {
	width, tall float32
	// laid is the width last laid out at, for MinSize's rows.
	laid float32
}

// columns is how many columns objs take at width w.
func (g *fitGrid) columns(n int, w float32) int {
	pad := theme.Padding()
	return max(1, min(n, int((w+pad)/(g.width+pad))))
}

// rows lays objs out at width w (when place) and returns the height.
func (g *fitGrid) rows(objs []fyne.CanvasObject, w float32, place bool) float32 {
	var shown []fyne.CanvasObject
	for _, o := range objs {
		if o.Visible() {
			shown = append(shown, o)
		}
	}
	if len(shown) == 0 {
		return 0
	}
	pad := theme.Padding()
	cols := g.columns(len(shown), w)
	cellW := (w - pad*float32(cols-1)) / float32(cols)
	y := float32(0)
	for i := 0; i < len(shown); i += cols {
		row := shown[i:min(i+cols, len(shown))]
		// The picture as wide as the column, square, within tall.
		side := cellW
		if g.tall > 0 {
			side = min(side, max(g.tall, pictureMin))
		}
		h := float32(0)
		for _, o := range row {
			h = max(h, o.MinSize().Height+max(0, side-pictureMin))
		}
		if place {
			for j, o := range row {
				o.Move(fyne.NewPos(float32(j)*(cellW+pad), y))
				o.Resize(fyne.NewSize(cellW, h))
			}
		}
		y += h + pad
	}
	return y - pad
}

// Layout implements fyne.Layout.
func (g *fitGrid) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	g.laid = size.Width
	g.rows(objs, size.Width, true)
}

// MinSize implements fyne.Layout: one column's width, and the rows at the
// width last laid out (one column before any).
func (g *fitGrid) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := max(g.laid, g.width)
	return fyne.NewSize(g.width, g.rows(objs, w, false))
}
