package thumbgrid

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// The grid as drawn, against a master image: a selected cell is framed
// and ticked with its colours untouched (no tint over them). A renderer change that alters a
// pixel fails here; the image it drew is written to testdata/failed.
func TestGoldenSelectionKeepsColours(t *testing.T) {
	test.NewTempApp(t)
	colours := []color.NRGBA{{0xd9, 0x48, 0x2b, 0xff}, {0x2a, 0x9d, 0x8f, 0xff}, {0xe9, 0xc4, 0x6a, 0xff}, {0x26, 0x46, 0x53, 0xff}}
	g := New(func() int { return len(colours) }, func() fyne.CanvasObject {
		r := canvas.NewRectangle(color.Black)
		r.SetMinSize(fyne.NewSize(96, 96))
		return r
	}, func(i int, o fyne.CanvasObject) {
		o.(*canvas.Rectangle).FillColor = colours[i]
		o.Refresh()
	})
	w := test.NewTempWindow(t, g)
	w.Resize(fyne.NewSize(460, 130))
	g.Select(1)
	test.AssertRendersToImage(t, "selection.png", w.Canvas())
}
