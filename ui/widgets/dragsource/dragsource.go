// Package dragsource turns a press that moves into a drag that can leave
// the window: the phases a widget reports (began once the pointer has
// moved Slop, every move after, the release) and an invisible widget to
// lay over a picture that reports them. What is dragged and where it goes
// is the owner's (ui/dragout carries files to another app); taps pass
// through to whatever is under it, since it takes drags only.
package dragsource

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Phase is where a drag is.
type Phase int

// A drag's phases.
const (
	// Began: the pointer moved Slop with the button down.
	Began Phase = iota
	// Moved: the pointer moved again, perhaps outside the window.
	Moved
	// Ended: the button came up.
	Ended
	// Cancelled: Esc was pressed during the drag; nothing is dropped,
	// and the release that follows is not reported.
	Cancelled
)

// Slop is how far the pointer moves, in Fyne's units, before a press
// becomes a drag: a click's small tremor is not a drag.
const Slop = 6

// Tracker counts a press's movement and says which phase each move is.
type Tracker struct {
	moved     float32
	dragging  bool
	cancelled bool
}

// Move takes one of Fyne's drag events: the phase to report, if any.
func (t *Tracker) Move(e *fyne.DragEvent) (Phase, bool) {
	if t.cancelled {
		return 0, false
	}
	if t.dragging {
		return Moved, true
	}
	t.moved += abs(e.Dragged.DX) + abs(e.Dragged.DY)
	if t.moved < Slop {
		return 0, false
	}
	t.dragging = true
	return Began, true
}

// End is the release: whether a drag was under way (to report Ended).
func (t *Tracker) End() bool {
	was := t.dragging
	t.moved, t.dragging, t.cancelled = 0, false, false
	return was
}

// Dragging reports whether the press has become a drag.
func (t *Tracker) Dragging() bool { return t.dragging }

// Cancel ends a drag under way before its release (Esc): it reports
// whether there was one (to report Cancelled); the rest of the press is
// not a drag.
func (t *Tracker) Cancel() bool {
	if !t.dragging {
		return false
	}
	t.dragging, t.cancelled = false, true
	return true
}

func abs(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// Source is an invisible widget that reports drags begun on it to
// OnDrag; lay it over what is dragged (in a Stack, last).
type Source struct {
	widget.BaseWidget
	OnDrag func(Phase)
	t      Tracker
}

// New is a source reporting to onDrag.
func New(onDrag func(Phase)) *Source {
	s := &Source{OnDrag: onDrag}
	s.ExtendBaseWidget(s)
	return s
}

// Dragged implements fyne.Draggable.
func (s *Source) Dragged(e *fyne.DragEvent) {
	if p, ok := s.t.Move(e); ok && s.OnDrag != nil {
		s.OnDrag(p)
	}
}

// DragEnd implements fyne.Draggable.
func (s *Source) DragEnd() {
	if s.t.End() && s.OnDrag != nil {
		s.OnDrag(Ended)
	}
}

// CreateRenderer implements fyne.Widget: nothing is drawn.
func (s *Source) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}
