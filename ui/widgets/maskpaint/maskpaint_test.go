package maskpaint

import (
	"image"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

func painter(t *testing.T) *Painter {
	test.NewTempApp(t)
	p := New(fyne.NewSize(100, 100))
	p.SetImage(image.NewGray(image.Rect(0, 0, 100, 50)))
	p.Resize(fyne.NewSize(200, 200)) // scale 2, the image 100 px down from the top
	return p
}

func drag(p *Painter, from, to fyne.Position) {
	for i := 0; i <= 4; i++ {
		pos := fyne.NewPos(from.X+(to.X-from.X)*float32(i)/4, from.Y+(to.Y-from.Y)*float32(i)/4)
		p.surface.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: pos}})
	}
	p.surface.DragEnd()
}

// A drag paints the image's pixels under the pointer, wherever the image
// sits in the widget, shows them tinted, and is one step to undo.
func TestADragPaintsUnderThePointer(t *testing.T) {
	p := painter(t)
	p.Radius, p.Hardness = 4, 1
	// Widget (20,100)–(180,100) is image (10,25)–(90,25).
	drag(p, fyne.NewPos(20, 100), fyne.NewPos(180, 100))
	m := p.Mask()
	if m.At(50, 25) != 255 || m.At(50, 40) != 0 || m.At(5, 25) != 0 {
		t.Errorf("painted %d on the line, %d below it, %d before its start", m.At(50, 25), m.At(50, 40), m.At(5, 25))
	}
	if tintAt(p, 50, 25) == 0 || tintAt(p, 50, 40) != 0 {
		t.Error("the tint does not follow the mask")
	}
	p.TypedShortcut(&fyne.ShortcutUndo{})
	if m.Painted() != 0 {
		t.Error("Ctrl+Z did not undo the stroke")
	}
	p.TypedShortcut(&fyne.ShortcutRedo{})
	if m.At(50, 25) != 255 {
		t.Error("Ctrl+Y did not redo it")
	}
	p.TypedShortcut(&fyne.ShortcutUndo{})
	// Ctrl+Shift+Z, as the Linux and Windows driver hands it over.
	p.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift})
	if m.At(50, 25) != 255 {
		t.Error("Ctrl+Shift+Z did not redo it")
	}
}

// [ and ] change the brush, E toggles the eraser, and the rectangle tool
// fills what the drag spans in one gesture.
func TestKeysAndTheRectangle(t *testing.T) {
	p := painter(t)
	r := p.Radius
	p.TypedRune(']')
	if p.Radius <= r {
		t.Error("] did not enlarge the brush")
	}
	p.TypedRune('[')
	p.TypedRune('[')
	if p.Radius >= r {
		t.Error("[ did not shrink the brush")
	}
	p.TypedRune('e')
	if !p.Erase {
		t.Error("E did not pick the eraser")
	}
	p.TypedRune('E')
	p.Tool = Rectangle
	drag(p, fyne.NewPos(20, 60), fyne.NewPos(60, 100)) // image (10,5)–(30,25)
	m := p.Mask()
	if m.At(20, 15) != 255 || m.At(40, 15) != 0 {
		t.Errorf("the rectangle: inside %d, outside %d", m.At(20, 15), m.At(40, 15))
	}
}

// tintAt is the tint's alpha over image pixel (x, y).
func tintAt(p *Painter, x, y int) uint8 {
	for _, t := range p.surface.tiles {
		if image.Pt(x, y).In(t.r) {
			return t.pix.NRGBAAt(x, y).A
		}
	}
	return 0
}

// Zoomed in and scrolled, the pointer still paints the pixel under it;
// Ctrl+wheel zooms about the pointer, the plain wheel pans, and Ctrl+0
// fits the image again.
func TestZoomAndPanKeepThePointerOnItsPixel(t *testing.T) {
	test.NewTempApp(t)
	p := New(fyne.NewSize(100, 100))
	p.SetImage(image.NewGray(image.Rect(0, 0, 1000, 500)))
	p.Resize(fyne.NewSize(200, 200)) // fit: 0.2 units a pixel
	if z := p.Zoom().View.Zoom; z != 0.2 {
		t.Fatalf("fit zoom %v, want 0.2", z)
	}
	ctrl := fyne.KeyModifier(0)
	modifiers = func() fyne.KeyModifier { return ctrl }
	t.Cleanup(func() { modifiers = func() fyne.KeyModifier { return 0 } })
	ctrl = fyne.KeyModifierControl
	for range 8 {
		p.surface.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(100+p.area.Scroll.Offset.X, 100+p.area.Scroll.Offset.Y)}, Scrolled: fyne.NewDelta(0, 1)})
	}
	z := p.Zoom().View.Zoom
	if math.Abs(z-0.2*math.Pow(1.25, 8)) > 1e-9 {
		t.Fatalf("after 8 notches zoom %v", z)
	}
	// The area's centre was over pixel (500, 250) and still is.
	at := p.toImage(fyne.NewPos(100+p.area.Scroll.Offset.X, 100+p.area.Scroll.Offset.Y))
	if math.Abs(at[0]-500) > 1 || math.Abs(at[1]-250) > 1 {
		t.Errorf("after zooming the centre is over %v, want (500, 250)", at)
	}
	ctrl = 0
	before := p.area.Scroll.Offset
	p.surface.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -40)})
	if p.area.Scroll.Offset.Y <= before.Y || p.Zoom().View.Zoom != z {
		t.Errorf("the wheel did not pan: offset %v -> %v, zoom %v", before, p.area.Scroll.Offset, p.Zoom().View.Zoom)
	}
	// A dab at the pointer lands on the pixel under it.
	p.Radius, p.Hardness = 1, 1
	pos := fyne.NewPos(57+p.area.Scroll.Offset.X, 131+p.area.Scroll.Offset.Y)
	want := pt(p.toImage(pos))
	p.surface.Tapped(&fyne.PointEvent{Position: pos})
	if p.Mask().At(want.X, want.Y) != 255 || p.Mask().Painted()*1000*500 > 12 {
		t.Errorf("the dab missed pixel %v", want)
	}
	p.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.Key0, Modifier: fyne.KeyModifierControl})
	if p.Zoom().View.Zoom != 0.2 || p.area.Scroll.Offset != (fyne.Position{}) {
		t.Errorf("Ctrl+0: zoom %v offset %v, want the whole image", p.Zoom().View.Zoom, p.area.Scroll.Offset)
	}
	p.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.Key1, Modifier: fyne.KeyModifierControl})
	if p.Zoom().Percent() != 100 {
		t.Errorf("Ctrl+1: %v %%", p.Zoom().Percent())
	}
	p.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: fyne.KeyModifierControl})
	if math.Abs(p.Zoom().Percent()-125) > 1e-9 {
		t.Errorf("Ctrl+=: %v %%", p.Zoom().Percent())
	}
}

// A stroke redraws only the tiles of the tint it touched; H hides the
// tint and the opacity is the tint's.
func TestAStrokeRedrawsOnlyWhatItTouched(t *testing.T) {
	test.NewTempApp(t)
	p := New(fyne.NewSize(100, 100))
	p.SetImage(image.NewGray(image.Rect(0, 0, 1024, 1024)))
	p.Resize(fyne.NewSize(1024, 1024))
	marks := map[*tile][]byte{}
	for _, tl := range p.surface.tiles {
		marks[tl] = append([]byte(nil), tl.pix.Pix...)
	}
	p.Radius, p.Hardness = 8, 1
	drag(p, fyne.NewPos(20, 20), fyne.NewPos(200, 20))
	changed := 0
	for tl, before := range marks {
		if string(before) != string(tl.pix.Pix) {
			changed++
			if !tl.r.Overlaps(image.Rect(0, 0, 256, 256)) {
				t.Errorf("tile %v changed, far from the stroke", tl.r)
			}
		}
	}
	if changed != 1 || len(p.surface.tiles) != 16 {
		t.Errorf("%d of %d tiles redrawn, want 1 of 16", changed, len(p.surface.tiles))
	}
	p.TypedRune('h')
	if !p.TintHidden() || !p.surface.tiles[0].img.Hidden {
		t.Error("H did not hide the tint")
	}
	p.SetOpacity(0.3)
	if math.Abs(float64(p.surface.tiles[0].img.Translucency)-0.7) > 1e-6 {
		t.Errorf("opacity 0.3 shows translucency %v", p.surface.tiles[0].img.Translucency)
	}
}
