package zoomarea

import (
	"image"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// A new image is fitted and stays fitted as the area changes, until the
// user zooms; the keys zoom, fit and show 100 %; the wheel zooms only
// with Ctrl.
func TestFitZoomAndKeys(t *testing.T) {
	test.NewTempApp(t)
	owner := canvas.NewRectangle(nil)
	a := New(owner, canvas.NewRectangle(nil))
	a.Resize(fyne.NewSize(400, 300))
	a.SetSize(image.Pt(800, 600))
	if a.View.Zoom != 0.5 || !a.Fitting {
		t.Fatalf("fit zoom %v", a.View.Zoom)
	}
	a.Resize(fyne.NewSize(200, 150))
	if a.View.Zoom != 0.25 {
		t.Errorf("refit zoom %v, want 0.25", a.View.Zoom)
	}
	zooms := 0
	a.OnZoom = func() { zooms++ }
	if !a.Shortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: fyne.KeyModifierControl}) || a.Fitting || math.Abs(a.View.Zoom-0.3125) > 1e-9 {
		t.Errorf("Ctrl+=: zoom %v fitting %v", a.View.Zoom, a.Fitting)
	}
	a.Resize(fyne.NewSize(400, 300))
	if math.Abs(a.View.Zoom-0.3125) > 1e-9 {
		t.Errorf("a zoomed view was refitted: %v", a.View.Zoom)
	}
	a.Shortcut(&desktop.CustomShortcut{KeyName: fyne.Key1, Modifier: fyne.KeyModifierControl})
	if a.Percent() != 100 {
		t.Errorf("Ctrl+1: %v %%", a.Percent())
	}
	if a.Shortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierControl}) {
		t.Error("Ctrl+Q taken for a zoom")
	}
	before := a.View.Zoom
	a.Wheel(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, 1)}, 0)
	if a.View.Zoom != before {
		t.Error("the wheel without Ctrl zoomed")
	}
	a.Wheel(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, 1)}, fyne.KeyModifierControl)
	if a.View.Zoom <= before || zooms < 3 {
		t.Errorf("Ctrl+wheel: %v -> %v, %d zooms told", before, a.View.Zoom, zooms)
	}
	a.Shortcut(&desktop.CustomShortcut{KeyName: fyne.Key0, Modifier: fyne.KeyModifierControl})
	if !a.Fitting || a.View.Zoom != 0.5 {
		t.Errorf("Ctrl+0: %v", a.View.Zoom)
	}
}
