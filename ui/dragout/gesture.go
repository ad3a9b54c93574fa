package dragout

import (
	"errors"

	"fyne.io/fyne/v2"

	"easel/internal/catalogue"
	"easel/ui/widgets/dragsource"
)

// Gesture carries what a widget reports of a drag (the gallery's grid, a
// job card's result) out of the window as files. It asks for the files
// when the drag begins, says through Note what is carried and how it
// ended, and hears the outcome through Do (the bridge to the UI
// goroutine).
type Gesture struct {
	Window fyne.Window
	Do     func(func())
	// Paths are the files being dragged, asked for when the drag begins.
	Paths func() ([]string, error)
	// Note shows a line of text to the designer; "" clears it.
	Note func(string)
	d    *Drag
}

// Follow takes one phase of the widget's drag.
func (g *Gesture) Follow(p dragsource.Phase) {
	switch p {
	case dragsource.Began:
		g.begin()
	case dragsource.Moved:
		if g.d != nil {
			g.d.Moved()
		}
	case dragsource.Ended:
		if g.d != nil {
			g.d.Released()
			g.d = nil
		}
	case dragsource.Cancelled:
		if g.d != nil {
			g.d.Cancel()
			g.d = nil
		}
	}
}

// Dragging reports whether a drag is under way.
func (g *Gesture) Dragging() bool { return g.d != nil }

func (g *Gesture) begin() {
	paths, err := g.Paths()
	if err == nil && len(paths) > MaxFiles {
		err = errors.New(catalogue.F("%d images is more than one drag carries (%d); use Export.", len(paths), MaxFiles))
	}
	if err == nil && len(paths) == 0 {
		return
	}
	var d *Drag
	if err == nil {
		d, err = Start(g.Window, paths)
	}
	switch {
	case errors.Is(err, ErrUnsupported):
		g.Note(catalogue.T("Dragging images out of Easel is not available on this desktop yet: use Copy image (Ctrl+C) or Export."))
		return
	case err != nil:
		g.Note(catalogue.F("Could not start dragging: %v", err))
		return
	}
	g.d = d
	if len(paths) == 1 {
		g.Note(catalogue.T("Drop on another app to give it this image"))
	} else {
		g.Note(catalogue.N("Drop on another app to give it these %d images", len(paths), len(paths)))
	}
	done := d.Done()
	go func() {
		dropped := <-done
		g.Do(func() {
			switch {
			case dropped && len(paths) == 1:
				g.Note(catalogue.T("Dropped the image on the other app"))
			case dropped:
				g.Note(catalogue.N("Dropped %d images on the other app", len(paths), len(paths)))
			default:
				g.Note("")
			}
		})
	}()
}
