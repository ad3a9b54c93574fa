package gallery

import (
	"errors"

	"easel/internal/catalogue"
	"easel/internal/library"
	"easel/ui/dragout"
	"easel/ui/widgets/dragsource"
)

// draggedOut carries the grid's selection out of the window, as files,
// to whatever app the pointer drops it on: a file manager, a browser's
// upload field, another editor. The note under the grid says what is
// being dragged and how it ended.
type draggedOut struct{ *Room }

// gesture is the grid's drag, made once.
func (t draggedOut) gesture() *dragout.Gesture {
	return &dragout.Gesture{Window: t.host.Window(), Do: t.host.Work().Do, Paths: t.selectedPaths, Note: t.note}
}

// opened is the drag of the image the details show, out of the window.
func (t draggedOut) opened(it library.Item) func(dragsource.Phase) {
	g := &dragout.Gesture{Window: t.host.Window(), Do: t.host.Work().Do, Note: t.note, Paths: func() ([]string, error) {
		lib := t.host.Library()
		if lib == nil {
			return nil, errors.New(catalogue.T("The gallery is not open."))
		}
		return []string{lib.Path(it)}, nil
	}}
	return g.Follow
}

// selectedPaths are the selected items' files, in the order chosen. The
// pages they are on are read if the grid has not read them yet: at most
// dragout.MaxFiles items, a bounded read.
func (t draggedOut) selectedPaths() ([]string, error) {
	order := t.grid.Selection().Order()
	if len(order) > dragout.MaxFiles {
		return nil, errors.New(catalogue.F("%d images is more than one drag carries (%d); use Export.", len(order), dragout.MaxFiles))
	}
	pager, lib := t.pager, t.host.Library()
	if pager == nil || lib == nil {
		return nil, errors.New(catalogue.T("The gallery is not open."))
	}
	paths := make([]string, 0, len(order))
	for _, i := range order {
		it, ok := pager.Item(i)
		if !ok {
			if err := pager.Load(t.host.Work().Context(), pager.Page(i)); err != nil {
				return nil, err
			}
			if it, ok = pager.Item(i); !ok {
				continue
			}
		}
		paths = append(paths, lib.Path(it))
	}
	return paths, nil
}

// note shows text under the grid; "" hides it.
func (t draggedOut) note(text string) {
	t.dragNote.SetText(text)
	t.dragNote.Hidden = text == ""
	t.dragNote.Refresh()
}
