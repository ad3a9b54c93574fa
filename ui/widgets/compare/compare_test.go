package compare

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// Dragging moves the divider across the image's own width; side by side
// shows the two apart.
func TestTheDividerFollowsTheDrag(t *testing.T) {
	test.NewTempApp(t)
	img := image.NewNRGBA(image.Rect(0, 0, 100, 100))
	img.Set(0, 0, color.White)
	v := New(img, img, fyne.NewSize(100, 100))
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(400, 200)) // the image fits 200x200, from x 100
	v.Resize(fyne.NewSize(400, 200))
	v.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(150, 100)}})
	if v.Split < 0.24 || v.Split > 0.26 {
		t.Errorf("split %v after a drag to a quarter of the image", v.Split)
	}
	v.Tapped(&fyne.PointEvent{Position: fyne.NewPos(390, 10)})
	if v.Split != 1 {
		t.Errorf("split %v past the image's right edge, want 1", v.Split)
	}
	v.SetSideBySide(true)
	r := test.TempWidgetRenderer(t, v).(*renderer)
	if !r.v.raster.Hidden || r.apart.Hidden {
		t.Error("side by side still shows the slider")
	}
}
