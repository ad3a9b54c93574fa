package gallery

import (
	"fyne.io/fyne/v2"

	"easel/ui/widgets/searchentry"
)

// Finder is the gallery's search field and the canvas it takes the
// keyboard on: each change of its text sends a query.
type Finder struct {
	entry  *searchentry.Entry
	canvas func() fyne.Canvas
}

// Set types text into the search, as a user does.
func (f Finder) Set(text string) { f.entry.SetText(text) }

// Focus puts the keyboard in the search (Ctrl+F).
func (f Finder) Focus() { f.canvas().Focus(f.entry) }

// Begin starts a search with r, typed on the grid: the search holds r
// alone, with the keyboard after it.
func (f Finder) Begin(r rune) {
	f.entry.SetText(string(r))
	f.entry.CursorColumn = len([]rune(f.entry.Text))
	f.Focus()
}
