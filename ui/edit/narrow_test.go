package edit

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"easel/ui/room/roomtest"
)

// At 1024x700 the painter's zoom controls sit beside, never over, the
// tools, the eraser and undo/redo (issue 40, item 10): the toolbar
// wraps rather than overlap.
func TestTheToolbarFitsAt1024By700(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 400, 300)))
	p := filepath.Join(t.TempDir(), "room.png")
	_ = os.WriteFile(p, buf.Bytes(), 0o600)
	h.UI(func() { r.AddFiles([]string{p}) })
	h.Until("the painter", func() bool { return r.mask.painter.Image() != nil })
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
