package zoomview

import (
	"image"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// The image is fitted, then shown at 100 %, zoomed about the pointer
// with Ctrl+wheel, and panned by a drag.
func TestFitActualZoomAndPan(t *testing.T) {
	test.NewTempApp(t)
	v := New(fyne.NewSize(100, 100))
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(400, 300))
	v.SetImage(image.NewNRGBA(image.Rect(0, 0, 1600, 1200)), false)
	v.Resize(fyne.NewSize(400, 300))
	if math.Abs(v.Zoom()-0.25) > 1e-9 || v.surface.checker.Hidden {
		t.Fatalf("fit zoom %v (want 0.25), checker hidden %v", v.Zoom(), v.surface.checker.Hidden)
	}
	v.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.Key1, Modifier: fyne.KeyModifierControl})
	if v.Percent() != 100 {
		t.Errorf("Ctrl+1: %v %%", v.Percent())
	}
	ctrl := fyne.KeyModifierControl
	modifiers = func() fyne.KeyModifier { return ctrl }
	t.Cleanup(func() { modifiers = func() fyne.KeyModifier { return 0 } })
	before := v.Zoom()
	v.surface.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(200+v.area.Scroll.Offset.X, 150+v.area.Scroll.Offset.Y)}, Scrolled: fyne.NewDelta(0, -1)})
	if v.Zoom() >= before {
		t.Errorf("Ctrl+wheel down did not zoom out: %v -> %v", before, v.Zoom())
	}
	v.Actual()
	off := v.area.Scroll.Offset
	v.surface.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(-50, -30)})
	if got := v.area.Scroll.Offset; got.X != off.X+50 || got.Y != off.Y+30 {
		t.Errorf("a drag moved the view from %v to %v", off, got)
	}
	v.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.Key0, Modifier: fyne.KeyModifierControl})
	if math.Abs(v.Zoom()-0.25) > 1e-9 {
		t.Errorf("Ctrl+0: %v", v.Zoom())
	}
}
