package gallery

import (
	"context"
	"errors"

	"easel/internal/catalogue"
	"easel/ui/dragout"
	"easel/ui/widgets/thumbgrid"
)

// draggedOut carries the grid's selection out of the window, as files,
// to whatever app the pointer drops it on: a file manager, a browser's
// upload field, another editor. The note under the grid says what is
// being dragged and how it ended.
type draggedOut struct{ *Room }

// onDrag follows the grid's drag of its selection.
func (t draggedOut) onDrag(p thumbgrid.DragPhase) {
	switch p {
	case thumbgrid.DragBegan:
		t.begin()
	case thumbgrid.DragMoved:
		if t.drag != nil {
			t.drag.Moved()
		}
	case thumbgrid.DragEnded:
		if t.drag != nil {
			t.drag.Released()
			t.drag = nil
		}
	}
}

func (t draggedOut) begin() {
	paths, err := t.selectedPaths()
	if err == nil {
		t.drag, err = dragout.Start(t.host.Window(), paths)
	}
	switch {
	case errors.Is(err, dragout.ErrUnsupported):
		t.note(catalogue.T("Dragging images out of Easel is not available on this desktop yet: use Copy image (Ctrl+C) or Export."))
		return
	case err != nil:
		t.note(catalogue.F("Could not start dragging: %v", err))
		return
	}
	if len(paths) == 1 {
		t.note(catalogue.T("Drop on another app to give it this image"))
	} else {
		t.note(catalogue.N("Drop on another app to give it these %d images", len(paths), len(paths)))
	}
	done := t.drag.Done()
	go func() {
		dropped := <-done
		t.host.Do(func() {
			switch {
			case dropped && len(paths) == 1:
				t.note(catalogue.T("Dropped the image on the other app"))
			case dropped:
				t.note(catalogue.N("Dropped %d images on the other app", len(paths), len(paths)))
			default:
				t.note("")
			}
		})
	}()
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
			if err := pager.Load(context.Background(), pager.Page(i)); err != nil {
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
