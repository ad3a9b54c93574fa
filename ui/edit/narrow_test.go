package edit

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"easel/ui/room/roomtest"
)

// At 1024x700 the painter's zoom controls sit beside, never over, the
// tools, the eraser and undo/redo (issue 40, item 10): the toolbar
// wraps rather than overlap.
func TestTheToolbarFitsAt1024By700(t *testing.T) {
	h, r := editWithPicture(t, 400, 300)
	for _, size := range []fyne.Size{{Width: 1024, Height: 700}, {Width: 900, Height: 700}, {Width: 1280, Height: 800}} {
		h.UI(func() {
			h.Window().Resize(size)
			d := fyne.CurrentApp().Driver()
			rect := func(o fyne.CanvasObject) (fyne.Position, fyne.Position) {
				at := d.AbsolutePositionForObject(o)
				return at, at.Add(o.Size())
			}
			tools := []fyne.CanvasObject{r.mask.tool, r.mask.eraser, r.mask.undo, r.mask.redo}
			for _, z := range r.mask.zoomRow.Objects {
				z0, z1 := rect(z)
				for _, o := range tools {
					o0, o1 := rect(o)
					if z0.X < o1.X && o0.X < z1.X && z0.Y < o1.Y && o0.Y < z1.Y {
						t.Errorf("at %v a zoom control (%v–%v) is drawn over a tool (%v–%v)", size, z0, z1, o0, o1)
					}
				}
			}
		})
	}
}

// The painter's own controls stand beside the canvas (#57: they were at
// the foot of the side panel, 25 wheel notches away): the tool-options
// bar is right of the canvas, left of the panel, on screen at 1280x800
// and 1024x700, and shows what the tool chosen takes.
func TestTheToolOptionsStandBesideTheCanvas(t *testing.T) {
	h, r := editWithPicture(t, 400, 300)
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		h.UI(func() {
			h.Window().Resize(size)
			d := fyne.CurrentApp().Driver()
			canvasAt := d.AbsolutePositionForObject(r.mask.canvas)
			sizeAt := d.AbsolutePositionForObject(r.mask.size)
			hardAt := d.AbsolutePositionForObject(r.mask.hardness)
			panelAt := d.AbsolutePositionForObject(r.panel)
			if !r.mask.size.Visible() || !r.mask.hardness.Visible() {
				t.Fatalf("at %v the brush's size or hardness is hidden", size)
			}
			if sizeAt.X < canvasAt.X+r.mask.canvas.Size().Width || sizeAt.X+r.mask.size.Size().Width > panelAt.X {
				t.Errorf("at %v the size slider (x %v–%v) is not between the canvas (ends %v) and the panel (starts %v)",
					size, sizeAt.X, sizeAt.X+r.mask.size.Size().Width, canvasAt.X+r.mask.canvas.Size().Width, panelAt.X)
			}
			if bottom := hardAt.Y + r.mask.hardness.Size().Height; bottom > size.Height || hardAt.Y < canvasAt.Y {
				t.Errorf("at %v the hardness slider is at y %v–%v, off the canvas's height", size, hardAt.Y, bottom)
			}
			if b := r.Button(); b.Size().Height > b.MinSize().Height+1 {
				t.Errorf("at %v Send edit is stretched to %v tall", size, b.Size().Height)
			}
			if r.mask.size.Size().Width < 120 {
				t.Errorf("at %v the size slider is %v wide", size, r.mask.size.Size().Width)
			}
		})
	}
	// The bar follows the tool: a mark tool shows the marks' colour and
	// actions, not the brush's.
	h.UI(func() { r.mask.tool.SetSelected(toolNames()[4]) })
	h.UI(func() {
		o := r.mask.options
		if o.brush.Visible() || o.maskPart.Visible() || !o.marksPart.Visible() {
			t.Errorf("with the arrow the bar shows the brush %v, the mask %v, the marks %v",
				o.brush.Visible(), o.maskPart.Visible(), o.marksPart.Visible())
		}
	})
	h.UI(func() { r.mask.tool.SetSelected(toolNames()[1]) })
	h.UI(func() {
		if o := r.mask.options; o.brush.Visible() || !o.maskPart.Visible() || o.marksPart.Visible() {
			t.Error("with the rectangle the bar shows the brush's size, or not the mask's part")
		}
	})
}

// Below 1024x700 (2x on a 1080p screen is 944x500) the side panel is a
// drawer over the canvas, not a crushed column beside it: the canvas
// takes the tab, the fold opens the panel over its right side at a
// readable width with Send edit in it, and a larger window brings the
// two side by side again (#57).
func TestASmallWindowHasThePanelAsADrawer(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	inTree := func(o fyne.CanvasObject) bool {
		for _, x := range r.sides.body.Objects {
			if x == o {
				return true
			}
		}
		return false
	}
	h.UI(func() { h.Window().Resize(fyne.NewSize(944, 500)) })
	h.UI(func() {
		if !r.sides.compact || inTree(r.sides.split) || inTree(r.sides.drawer) {
			t.Fatalf("at 944x500: compact %v, the split shown %v, the drawer shown %v", r.sides.compact, inTree(r.sides.split), inTree(r.sides.drawer))
		}
		if w := r.mask.canvas.Size().Width; w < 600 {
			t.Errorf("at 944x500 the canvas is %v wide", w)
		}
		test.Tap(r.sides.fold)
	})
	h.UI(func() {
		if !inTree(r.sides.drawer) {
			t.Fatal("the fold did not open the drawer")
		}
		d := fyne.CurrentApp().Driver()
		at := d.AbsolutePositionForObject(r.panel)
		if w := r.panel.Size().Width; w < 320 || at.X+w > 945 || at.X < 100 {
			t.Errorf("the drawer's panel is %v wide at x %v", w, at.X)
		}
		if foldAt := d.AbsolutePositionForObject(r.sides.fold); foldAt.X < at.X+r.panel.Size().Width {
			t.Errorf("the drawer (to x %v) covers the fold that closes it (at x %v)", at.X+r.panel.Size().Width, foldAt.X)
		}
		b := r.Button()
		if bAt := d.AbsolutePositionForObject(b); !b.Visible() || bAt.Y+b.Size().Height > 500 || bAt.X < at.X {
			t.Errorf("Send edit is at %v in the drawer", bAt)
		}
		test.Tap(r.sides.fold)
	})
	h.UI(func() {
		if inTree(r.sides.drawer) {
			t.Error("the fold did not close the drawer")
		}
		h.Window().Resize(fyne.NewSize(1280, 800))
	})
	h.UI(func() {
		if r.sides.compact || !inTree(r.sides.split) || r.sides.split.Trailing != r.panel {
			t.Errorf("at 1280x800: compact %v, the split shown %v", r.sides.compact, inTree(r.sides.split))
		}
	})
}

// Once an edit is sent the edits below the form get most of the panel's
// column, so its card is read where it lands (#57: a finished kept
// edit's card was cut to 140 units under the form at 1280x800); a
// divider the designer moved stays where they put it.
func TestTheEditsGetRoomOnceOneIsSent(t *testing.T) {
	h, r := editWithPicture(t, 96, 64)
	h.UI(func() {
		r.Prompt().SetText("warmer")
		r.PrimaryAction()
	})
	h.Until("the edits given the room", func() bool { return r.column.Offset < 1-editsShare+0.01 })
	h.UI(func() { r.column.SetOffset(0.7) })
	h.UI(func() { r.PrimaryAction() })
	h.Until("the second edit's card", func() bool { return len(r.Jobs().Box.Objects) >= 2 })
	h.UI(func() {
		if r.column.Offset != 0.7 {
			t.Errorf("a divider the designer moved went to %v", r.column.Offset)
		}
	})
}

// editWithPicture is Edit built in a test window with a grey picture of
// w×h as its only input, shown in the painter.
func editWithPicture(t *testing.T, w, h int) (*roomtest.Host, *Room) {
	t.Helper()
	host := roomtest.New(t)
	r := New(host)
	host.Show(r.Build)
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h)))
	p := filepath.Join(t.TempDir(), "room.png")
	_ = os.WriteFile(p, buf.Bytes(), 0o600)
	host.UI(func() { r.AddFiles([]string{p}) })
	host.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	return host, r
}
