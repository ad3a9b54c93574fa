package maskpaint

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
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
		p.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: pos}})
	}
	p.DragEnd()
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
	if p.tinted.NRGBAAt(50, 25).A == 0 || p.tinted.NRGBAAt(50, 40).A != 0 {
		t.Error("the tint does not follow the mask")
	}
	p.TypedShortcut(&fyne.ShortcutUndo{})
	if m.Painted() != 0 {
		t.Error("Ctrl+Z did not undo the stroke")
	}
	p.TypedShortcut(&fyne.ShortcutRedo{})
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
