// Package dragout carries images out of Easel's window into other apps
// by drag and drop, which Fyne does not offer: a designer drags results
// from the gallery into a file manager, a browser's upload field or
// another editor. Each desktop has its own protocol, in a file of its
// own: XDND on X11 (through internal/xdnd), OLE's DoDragDrop on Windows
// (through internal/oledrag). macOS has none yet, and says so.
package dragout

import (
	"errors"

	"fyne.io/fyne/v2"
)

// ErrUnsupported is a desktop (or a display server) Easel cannot drag
// out of yet; the gallery says so and offers Copy image and Export.
var ErrUnsupported = errors.New("dragging out of the window is not supported here")

// Drag is one drag of files out of the window. The widget that started
// it reports the pointer's moves and the button's release, as Fyne tells
// it (Fyne keeps telling a dragged widget of moves outside the window).
type Drag struct {
	p    platformDrag
	done chan bool
}

// Start begins dragging the files at paths out of w. Done then reports
// once whether another app took them.
func Start(w fyne.Window, paths []string) (*Drag, error) {
	d := &Drag{done: make(chan bool, 1)}
	p, err := start(w, paths, d.done)
	if err != nil {
		return nil, err
	}
	d.p = p
	return d, nil
}

// Moved says the pointer moved.
func (d *Drag) Moved() { d.p.moved() }

// Released says the button came up: the files go where the pointer is,
// if an app there takes them.
func (d *Drag) Released() { d.p.released() }

// Cancel ends the drag without dropping.
func (d *Drag) Cancel() { d.p.cancel() }

// Done reports once whether the files were dropped; read it off the UI
// goroutine (a target may take seconds to fetch them).
func (d *Drag) Done() <-chan bool { return d.done }

// MaxFiles is the most one drag carries: a drop target takes the list in
// one message, and a selection of thousands is an export, not a drag.
const MaxFiles = 500
