package thumbgrid

import (
	"fmt"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/ui/widgets/dragsource"
)

func grid(t *testing.T, n int) (*Grid, fyne.Window) {
	test.NewTempApp(t)
	g := New(func() int { return n }, func() fyne.CanvasObject {
		l := widget.NewLabel("")
		return box(l)
	}, func(i int, o fyne.CanvasObject) {
		o.(*fyne.Container).Objects[0].(*widget.Label).SetText(fmt.Sprint(i))
	})
	w := test.NewTempWindow(t, g)
	w.Resize(fyne.NewSize(400, 400))
	return g, w
}

func box(o fyne.CanvasObject) *fyne.Container {
	c := &fyne.Container{Objects: []fyne.CanvasObject{o}}
	c.Resize(fyne.NewSize(80, 80))
	return c
}

// cells are the cells on screen, by place.
func cells(g *Grid) map[int]*cell {
	out := map[int]*cell{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if c, ok := o.(*cell); ok {
			out[c.place] = c
			return
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, k := range c.Objects {
				walk(k)
			}
		}
		if w, ok := o.(fyne.Widget); ok {
			for _, k := range test.WidgetRenderer(w).Objects() {
				walk(k)
			}
		}
	}
	walk(g.wrap)
	return out
}

// Clicks with and without Ctrl and Shift choose as a file manager does;
// the cells draw the selection; keys move, extend, toggle, clear, open
// and hand F, Delete and Ctrl+E over.
func TestClicksAndKeysSelect(t *testing.T) {
	g, w := grid(t, 40)
	var keys []string
	opened := -1
	g.OnKey = func(k string) { keys = append(keys, k) }
	g.OnOpen = func(i int) { opened = i }
	cs := cells(g)
	down := func(i int, mod fyne.KeyModifier) {
		cs[i].MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary, Modifier: mod})
	}
	down(2, 0)
	down(5, fyne.KeyModifierControl)
	down(8, fyne.KeyModifierShift)
	if got := g.Selection().Order(); !slices.Equal(got, []int{2, 5, 6, 7, 8}) {
		t.Fatalf("click, Ctrl+click, Shift+click: %v", got)
	}
	cs = cells(g)
	if !cs[6].frame.Visible() || cs[3].frame.Visible() || !cs[8].border.Visible() {
		t.Error("the cells do not draw the selection and the cursor")
	}
	if w.Canvas().Focused() != g {
		t.Error("a click did not give the grid the keys")
	}
	shift := fyne.KeyModifier(0)
	modifiers = func() fyne.KeyModifier { return shift }
	t.Cleanup(func() { modifiers = func() fyne.KeyModifier { return 0 } })
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	if got := g.Selection().Order(); !slices.Equal(got, []int{9}) {
		t.Errorf("Right: %v", got)
	}
	shift = fyne.KeyModifierShift
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	shift = 0
	if got := g.Selection().Order(); !slices.Equal(got, []int{9, 10, 11}) {
		t.Errorf("Shift+Right twice: %v", got)
	}
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if g.Selection().Has(11) {
		t.Error("Space did not toggle the cursor's place")
	}
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	g.TypedRune('f')
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	g.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierControl})
	if opened != 11 || !slices.Equal(keys, []string{KeyFavourite, KeyDelete, KeyExport}) {
		t.Errorf("opened %d, keys %v", opened, keys)
	}
	g.TypedShortcut(&fyne.ShortcutSelectAll{})
	if g.Selection().Len() != 40 {
		t.Errorf("Ctrl+A selected %d", g.Selection().Len())
	}
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if g.Selection().Len() != 0 {
		t.Error("Esc kept the selection")
	}
}

func press(c *cell, mod fyne.KeyModifier) {
	c.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary, Modifier: mod})
}

func release(c *cell) {
	c.MouseUp(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
}

func drag(c *cell, dx float32) {
	c.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: dx}})
}

// A press that moves past dragsource.Slop drags the selection: the owner hears
// it begin, move and end; a tremor under dragsource.Slop is still a click.
func TestDraggingACellDragsTheSelection(t *testing.T) {
	g, _ := grid(t, 20)
	var heard []dragsource.Phase
	g.OnDrag = func(p dragsource.Phase) { heard = append(heard, p) }
	cs := cells(g)

	press(cs[3], 0)
	drag(cs[3], 2)
	cs[3].DragEnd()
	release(cs[3])
	if len(heard) != 0 || !slices.Equal(g.Selection().Order(), []int{3}) {
		t.Fatalf("a 2-unit tremor: heard %v, selection %v; want a click on 3", heard, g.Selection().Order())
	}

	press(cs[5], 0)
	drag(cs[5], 4)
	drag(cs[5], 4)
	drag(cs[5], 40)
	cs[5].DragEnd()
	if want := []dragsource.Phase{dragsource.Began, dragsource.Moved, dragsource.Ended}; !slices.Equal(heard, want) {
		t.Fatalf("heard %v, want %v", heard, want)
	}
	if !slices.Equal(g.Selection().Order(), []int{5}) {
		t.Errorf("dragging 5 selected %v, want [5]", g.Selection().Order())
	}
}

// A plain press inside a multi-selection keeps it, so that all of it can
// be dragged; released without a drag, it is a click after all.
func TestPressInsideASelectionWaitsForTheRelease(t *testing.T) {
	g, _ := grid(t, 20)
	began := 0
	g.OnDrag = func(p dragsource.Phase) {
		if p == dragsource.Began {
			began++
		}
	}
	cs := cells(g)
	press(cs[1], 0)
	release(cs[1])
	press(cs[2], fyne.KeyModifierControl)
	release(cs[2])
	press(cs[4], fyne.KeyModifierControl)
	release(cs[4])

	press(cs[2], 0)
	drag(cs[2], 10)
	cs[2].DragEnd()
	release(cs[2])
	if began != 1 || !slices.Equal(g.Selection().Order(), []int{1, 2, 4}) {
		t.Fatalf("drag from inside [1 2 4]: began %d, selection %v", began, g.Selection().Order())
	}

	press(cs[2], 0)
	if !slices.Equal(g.Selection().Order(), []int{1, 2, 4}) {
		t.Fatalf("a press inside the selection changed it to %v", g.Selection().Order())
	}
	release(cs[2])
	if !slices.Equal(g.Selection().Order(), []int{2}) {
		t.Errorf("a click inside the selection left %v, want [2]", g.Selection().Order())
	}
}

// Esc during a drag cancels the drag and keeps the selection; the
// release after it reports nothing more.
func TestEscCancelsADrag(t *testing.T) {
	g, _ := grid(t, 20)
	var heard []dragsource.Phase
	g.OnDrag = func(p dragsource.Phase) { heard = append(heard, p) }
	cs := cells(g)
	press(cs[4], 0)
	drag(cs[4], 20)
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	drag(cs[4], 20)
	cs[4].DragEnd()
	release(cs[4])
	if want := []dragsource.Phase{dragsource.Began, dragsource.Cancelled}; !slices.Equal(heard, want) {
		t.Fatalf("heard %v, want %v", heard, want)
	}
	if !slices.Equal(g.Selection().Order(), []int{4}) {
		t.Errorf("Esc during the drag left %v selected, want [4]", g.Selection().Order())
	}
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if g.Selection().Len() != 0 {
		t.Error("Esc after the drag did not clear the selection")
	}
}
