package gallery

import (
	"errors"

	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/library"
	"easel/ui/dragout"
	"easel/ui/kit"
	"easel/ui/widgets/dragsource"
	"easel/ui/widgets/thumbgrid"
)

// dragOut carries the grid's selection out of the window, as files,
// to whatever app the pointer drops it on: a file manager, a browser's
// upload field, another editor. Its label, under the grid, says what is
// being dragged and how it ended.
type dragOut struct {
	host    Host
	grid    *thumbgrid.Grid
	pager   func() *library.Pager
	gesture *dragout.Gesture
	label   *widget.Label
}

func newDragOut(h Host, grid *thumbgrid.Grid, pager func() *library.Pager) *dragOut {
	d := &dragOut{host: h, grid: grid, pager: pager, label: kit.HintLabel("")}
	d.label.Hide()
	d.gesture = &dragout.Gesture{Window: h.Window(), Do: h.Work().Do, Paths: d.selectedPaths, Note: d.note}
	return d
}

// of is the drag of one item, current's, out of the window: the image
// the details show.
func (d *dragOut) of(current func() library.Item) func(dragsource.Phase) {
	g := &dragout.Gesture{Window: d.host.Window(), Do: d.host.Work().Do, Note: d.note, Paths: func() ([]string, error) {
		lib := d.host.Library()
		if lib == nil {
			return nil, errors.New(catalogue.T("The gallery is not open."))
		}
		return []string{lib.Path(current())}, nil
	}}
	return g.Follow
}

// settle drops the last drag's note once the selection moves on: its
// outcome is old news.
func (d *dragOut) settle() {
	if !d.gesture.Dragging() && !d.label.Hidden {
		d.note("")
	}
}

// selectedPaths are the selected items' files, in the order chosen. The
// pages they are on are read if the grid has not read them yet: at most
// dragout.MaxFiles items, a bounded read.
func (d *dragOut) selectedPaths() ([]string, error) {
	order := d.grid.Selection().Order()
	if len(order) > dragout.MaxFiles {
		return nil, errors.New(catalogue.F("%d images is more than one drag carries (%d); use Export.", len(order), dragout.MaxFiles))
	}
	pager, lib := d.pager(), d.host.Library()
	if pager == nil || lib == nil {
		return nil, errors.New(catalogue.T("The gallery is not open."))
	}
	paths := make([]string, 0, len(order))
	for _, i := range order {
		it, ok := pager.Item(i)
		if !ok {
			if err := pager.Load(d.host.Work().Context(), pager.Page(i)); err != nil {
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
func (d *dragOut) note(text string) {
	d.label.SetText(text)
	d.label.Hidden = text == ""
	d.label.Refresh()
}
