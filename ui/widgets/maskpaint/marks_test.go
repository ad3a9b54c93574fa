package maskpaint

import (
	"testing"

	"fyne.io/fyne/v2"

	"easel/internal/markup"
)

// The mark tools draw marks over the image, apart from the mask: a drag
// is a pen stroke, an arrow or a circle, a tap asks for a note; the
// marks show over the image and are taken back one at a time.
func TestMarksAreDrawnApartFromTheMask(t *testing.T) {
	p := painter(t)
	p.Tool = MarkArrow
	drag(p, fyne.NewPos(20, 100), fyne.NewPos(180, 100)) // image (10,25)–(90,25)
	p.Tool = MarkPen
	drag(p, fyne.NewPos(20, 60), fyne.NewPos(100, 80))
	p.Tool = MarkCircle
	drag(p, fyne.NewPos(100, 100), fyne.NewPos(120, 100))
	var noteAt [2]float64
	p.OnNote = func(at [2]float64) { noteAt = at }
	p.Tool = MarkNote
	p.surface.Tapped(&fyne.PointEvent{Position: fyne.NewPos(40, 90)})
	p.Marks.AddNote(noteAt, "brighter here")

	m := p.Marks.All()
	kinds := []markup.Kind{}
	for _, mk := range m.Items {
		kinds = append(kinds, mk.Kind)
	}
	if len(kinds) != 4 || kinds[0] != markup.Arrow || kinds[1] != markup.Pen || kinds[2] != markup.Circle || kinds[3] != markup.Note {
		t.Fatalf("marks %v", kinds)
	}
	if a := m.Items[0].Points; a[0][0] < 9 || a[0][0] > 11 || a[1][0] < 89 || a[1][0] > 91 {
		t.Errorf("the arrow runs %v", a)
	}
	if noteAt[0] < 19 || noteAt[0] > 21 {
		t.Errorf("the note is at %v", noteAt)
	}
	if p.Mask().Painted() != 0 {
		t.Error("drawing marks painted the mask")
	}
	if !p.surface.marks.Visible() || p.surface.marks.Image == nil || p.surface.marks.Image.Bounds().Dx() != 100 {
		t.Error("the marks are not shown over the image")
	}
	p.Marks.Undo()
	if len(p.Marks.All().Items) != 3 {
		t.Error("undo took back more or less than the last mark")
	}
	p.Marks.Clear()
	if !p.Marks.All().Empty() || p.surface.marks.Visible() {
		t.Error("clearing left marks")
	}
}
