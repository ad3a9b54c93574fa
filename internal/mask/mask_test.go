package mask

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

func stroke(m *Mask, x0, y0, x1, y1, radius, hardness float64, erase bool) {
	m.Begin()
	m.Line(x0, y0, x1, y1, radius, hardness, erase)
	m.End()
}

// A hard brush paints solid inside its radius and nothing outside; a soft
// one fades towards its edge.
func TestTheBrushPaintsItsRadiusWithItsHardness(t *testing.T) {
	m := New(100, 100)
	stroke(m, 50, 50, 50, 50, 10, 1, false)
	if m.At(50, 50) != 255 || m.At(45, 50) != 255 || m.At(62, 50) != 0 || m.At(50, 39) != 0 {
		t.Errorf("hard dab: centre %d, inside %d, outside %d/%d", m.At(50, 50), m.At(45, 50), m.At(62, 50), m.At(50, 39))
	}
	soft := New(100, 100)
	stroke(soft, 50, 50, 50, 50, 10, 0, false)
	if c, mid, edge := soft.At(50, 50), soft.At(55, 50), soft.At(59, 50); !(c > mid && mid > edge && edge > 0) {
		t.Errorf("soft dab does not fade: %d, %d, %d", c, mid, edge)
	}
}

// A fast stroke (two points far apart) paints a line without gaps, and
// the eraser clears what it passes over.
func TestStrokesHaveNoGapsAndTheEraserClears(t *testing.T) {
	m := New(200, 50)
	stroke(m, 10, 25, 190, 25, 4, 1, false)
	for x := 10; x <= 190; x++ {
		if m.At(x, 25) != 255 {
			t.Fatalf("a gap at x=%d", x)
		}
	}
	stroke(m, 100, 0, 100, 50, 6, 1, true)
	if m.At(100, 25) != 0 || m.At(80, 25) != 255 {
		t.Errorf("after the eraser: %d at the crossing, %d beside it", m.At(100, 25), m.At(80, 25))
	}
}

// Rectangles and lassos fill or clear an area in one step.
func TestRectangleAndLassoFillInOneStep(t *testing.T) {
	m := New(100, 100)
	m.Rect(image.Rect(60, 10, 20, 30), false) // corners in any order
	if m.At(20, 10) != 255 || m.At(59, 29) != 255 || m.At(60, 30) != 0 {
		t.Error("the rectangle is not filled exactly")
	}
	m.Lasso([]image.Point{{10, 50}, {90, 50}, {50, 90}}, false)
	if m.At(50, 60) != 255 || m.At(12, 88) != 0 {
		t.Errorf("the lasso: inside %d, outside %d", m.At(50, 60), m.At(12, 88))
	}
	area := 0
	for y := 50; y < 90; y++ {
		for x := 0; x < 100; x++ {
			if m.At(x, y) == 255 {
				area++
			}
		}
	}
	if area < 1500 || area > 1700 { // the triangle is 1,600 pixels
		t.Errorf("the lasso filled %d pixels, want about 1,600", area)
	}
	m.Lasso([]image.Point{{0, 0}, {100, 0}, {100, 100}, {0, 100}}, true)
	if m.Painted() != 0 {
		t.Error("an erasing lasso over everything left paint")
	}
	if len(m.undo) != 3 {
		t.Errorf("%d steps, want 3", len(m.undo))
	}
}

// Invert, clear and fill are steps too; undo and redo go back and forth
// exactly, and a new step drops what could be redone.
func TestUndoAndRedoRestoreExactly(t *testing.T) {
	m := New(64, 64)
	var states [][]byte
	save := func() { states = append(states, bytes.Clone(m.a.Pix)) }
	save()
	stroke(m, 10, 10, 50, 40, 5, 0.5, false)
	save()
	m.Invert()
	save()
	m.Rect(image.Rect(0, 0, 20, 20), true)
	save()
	m.Fill()
	save()
	m.Clear()
	save()
	for i := len(states) - 2; i >= 0; i-- {
		m.Undo()
		if !bytes.Equal(m.a.Pix, states[i]) {
			t.Fatalf("undo to step %d differs", i)
		}
	}
	if m.CanUndo() {
		t.Error("more to undo than was done")
	}
	for i := 1; i < len(states); i++ {
		m.Redo()
		if !bytes.Equal(m.a.Pix, states[i]) {
			t.Fatalf("redo to step %d differs", i)
		}
	}
	m.Undo()
	stroke(m, 1, 1, 2, 2, 1, 1, true)
	if m.CanRedo() {
		t.Error("a new step kept the redo history")
	}
}

// Fifty steps can be undone however large the image, and the history
// holds what the steps touched, not whole masks.
func TestTheHistoryIsBoundedByWhatChanged(t *testing.T) {
	m := New(2048, 2048)
	for i := range 60 {
		stroke(m, float64(i*30+20), 100, float64(i*30+40), 120, 8, 1, false)
	}
	if len(m.undo) < MinUndo {
		t.Errorf("%d steps can be undone, want at least %d", len(m.undo), MinUndo)
	}
	if m.HistoryBytes() > 60*2*40*40 {
		t.Errorf("the history holds %d bytes for 60 small strokes on a 4-megapixel mask", m.HistoryBytes())
	}
	for range 30 {
		m.Fill()
		m.Invert()
	}
	if m.HistoryBytes() > 1<<20 || len(m.undo) < MinUndo {
		t.Errorf("after 120 whole-mask steps: %d bytes, %d steps", m.HistoryBytes(), len(m.undo))
	}
}

// The PNG the service gets is transparent where the image may change and
// opaque where it is kept, the size of the image.
func TestThePNGMarksWhatMayChangeAsTransparent(t *testing.T) {
	m := New(30, 20)
	m.Rect(image.Rect(0, 0, 10, 20), false)
	data, err := m.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 30 || img.Bounds().Dy() != 20 {
		t.Fatalf("the PNG is %v", img.Bounds())
	}
	if _, _, _, a := img.At(5, 5).RGBA(); a != 0 {
		t.Errorf("a painted pixel has alpha %d, want 0", a)
	}
	if _, _, _, a := img.At(20, 5).RGBA(); a != 0xffff {
		t.Errorf("a kept pixel has alpha %d, want opaque", a)
	}
}

// A mask imported from a PNG with transparency takes its transparent
// pixels as the area to change; an opaque black-and-white one, its white;
// a mask exported and imported again is the same mask.
func TestMasksImportAndExport(t *testing.T) {
	m := New(20, 10)
	m.Rect(image.Rect(0, 0, 5, 10), false)
	data, _ := m.PNG()
	img, _ := png.Decode(bytes.NewReader(data))
	back := FromImage(img)
	if !bytes.Equal(back.a.Pix, m.a.Pix) {
		t.Error("an exported mask does not import as itself")
	}
	bw := image.NewGray(image.Rect(0, 0, 20, 10))
	for y := 0; y < 10; y++ {
		for x := 15; x < 20; x++ {
			bw.SetGray(x, y, color.Gray{Y: 255})
		}
	}
	got := FromImage(bw)
	if got.At(17, 5) != 255 || got.At(2, 5) != 0 {
		t.Errorf("a black-and-white mask: white %d, black %d", got.At(17, 5), got.At(2, 5))
	}
}

// A mask made from an alpha reads as painted where the alpha is.
func TestFromAlpha(t *testing.T) {
	a := image.NewAlpha(image.Rect(0, 0, 4, 3))
	a.SetAlpha(2, 1, color.Alpha{200})
	m := FromAlpha(a)
	if m.Bounds().Size() != image.Pt(4, 3) || m.At(2, 1) != 200 || m.At(0, 0) != 0 || m.CanUndo() {
		t.Errorf("mask %v: %d %d", m.Bounds(), m.At(2, 1), m.At(0, 0))
	}
}

// The painted count is kept as each change happens, never by a scan: it
// must equal a scan after any mix of strokes, shapes, inversions, undo
// and redo.
func TestPaintedCountFollowsEveryChange(t *testing.T) {
	m := New(97, 61)
	scan := func() int {
		n := 0
		for _, v := range m.Alpha().Pix {
			if v >= 128 {
				n++
			}
		}
		return n
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		switch rng.IntN(8) {
		case 0:
			m.Line(rng.Float64()*97, rng.Float64()*61, rng.Float64()*97, rng.Float64()*61, 1+rng.Float64()*9, rng.Float64(), rng.IntN(3) == 0)
		case 1:
			m.Rect(image.Rect(rng.IntN(97), rng.IntN(61), rng.IntN(97), rng.IntN(61)), rng.IntN(2) == 0)
		case 2:
			m.Lasso([]image.Point{{rng.IntN(97), rng.IntN(61)}, {rng.IntN(97), rng.IntN(61)}, {rng.IntN(97), rng.IntN(61)}}, rng.IntN(2) == 0)
		case 3:
			m.Invert()
		case 4, 5:
			m.Undo()
		case 6:
			m.Redo()
		case 7:
			m.Dab(rng.Float64()*97, rng.Float64()*61, 4, 0.3, false)
		}
		if got, want := m.painted, scan(); got != want {
			t.Fatalf("step %d: counted %d painted pixels, a scan finds %d", i, got, want)
		}
		if m.IsPainted() != (scan() > 0) {
			t.Fatalf("step %d: IsPainted %v with %d painted", i, m.IsPainted(), scan())
		}
	}
	if FromAlpha(m.Alpha()).painted != scan() {
		t.Error("a mask made from another does not count its painted pixels")
	}
}
