package maskpaint

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

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

// A note reads at any zoom (#57: drawn into the picture, it was 7 pixels
// tall at 87 %): it is a chip of words in the window's text size at its
// place in the picture, apart from the shapes' picture, in a colour far
// from the mask's tint.
func TestANoteReadsAtAnyZoom(t *testing.T) {
	p := painter(t)
	p.Marks.AddNote([2]float64{20, 40}, "make this a window")
	if len(p.surface.notes) != 1 || p.surface.marks.Visible() {
		t.Fatalf("a note alone is %d chips, the shapes' picture shown: %v", len(p.surface.notes), p.surface.marks.Visible())
	}
	for _, zoom := range []float64{0.25, 0.5, 2} {
		p.area.Apply(zoom, 0, 0)
		p.surface.Refresh()
		n := p.surface.notes[0]
		if n.text.TextSize != theme.TextSize() || n.text.Text != "make this a window" {
			t.Errorf("at %v×, the note is %q at %v points", zoom, n.text.Text, n.text.TextSize)
		}
		x, y := p.area.View.ToContent(20, 40)
		if bottom := n.text.Position().Y + n.text.Size().Height; math.Abs(float64(n.text.Position().X)-x) > 0.5 || math.Abs(float64(bottom)-y) > 0.5 {
			t.Errorf("at %v×, the note's words start at %v, its place is (%.0f, %.0f)", zoom, n.text.Position(), x, y)
		}
	}
	if c := p.surface.notes[0].bg.FillColor.(color.NRGBA); c != markup.Bright || c == tint {
		t.Errorf("the note's chip is %v", c)
	}
	p.Marks.SetColour(color.NRGBA{R: 0xff, G: 0xd6, B: 0x0a, A: 0xff})
	if c := p.surface.notes[0].bg.FillColor.(color.NRGBA); c.G != 0xd6 || p.surface.notes[0].text.Color != markup.Contrast(c) {
		t.Errorf("after a new colour the chip is %v, its words %v", c, p.surface.notes[0].text.Color)
	}
}
