package maskpaint

import (
	"image/color"
	"math"

	"easel/internal/markup"
)

// Layer is the marks drawn over the painter's image with the mark tools,
// apart from the mask: it owns them, the mark being drawn, and their
// picture over the image.
type Layer struct {
	p     *Painter
	marks markup.Marks
	// path is the mark being drawn, in image pixels.
	path [][2]float64
}

// All are the marks drawn.
func (l *Layer) All() markup.Marks { return l.marks }

// Set replaces the marks (a draft restored, a test).
func (l *Layer) Set(m markup.Marks) {
	l.marks = m
	l.show()
	l.p.changed()
}

// SetColour draws the marks, those made and those to come, in c.
func (l *Layer) SetColour(c color.NRGBA) {
	if l.marks.Colour == c {
		return
	}
	l.marks.Colour = c
	l.show()
	l.p.changed()
}

// AddNote puts a note of text at a point of the image.
func (l *Layer) AddNote(at [2]float64, text string) {
	if text == "" || l.p.img == nil {
		return
	}
	l.add(markup.Mark{Kind: markup.Note, Points: [][2]float64{at}, Text: text})
}

// Undo takes the last mark back.
func (l *Layer) Undo() {
	if n := len(l.marks.Items); n > 0 {
		l.Set(markup.Marks{Colour: l.marks.Colour, Items: l.marks.Items[:n-1]})
	}
}

// Clear takes every mark back.
func (l *Layer) Clear() { l.Set(markup.Marks{Colour: l.marks.Colour}) }

func (l *Layer) add(mk markup.Mark) {
	l.marks.Items = append(l.marks.Items, mk)
	l.show()
	l.p.changed()
}

// show draws the marks over the image: the shapes at its size, the
// notes in the window's type at the window's text size, so a note reads
// at any zoom (drawn into the picture, a note on a 1024-pixel image was
// 7 pixels tall at 87 %).
func (l *Layer) show() {
	if l.p.img == nil {
		l.p.surface.setMarks(nil)
		l.p.surface.setNotes(nil, l.colour())
		return
	}
	shapes := l.marks.Shapes()
	if shapes.Empty() {
		l.p.surface.setMarks(nil)
	} else {
		b := l.p.img.Bounds()
		l.p.surface.setMarks(shapes.Render(b.Dx(), b.Dy()))
	}
	l.p.surface.setNotes(l.marks.Notes(), l.colour())
}

// colour is the marks' colour: the one chosen, or markup's own.
func (l *Layer) colour() color.NRGBA {
	if l.marks.Colour.A == 0 {
		return markup.Bright
	}
	return l.marks.Colour
}

// drag follows a mark being drawn with a guide: the pen's path, the
// arrow's line, the circle's outline.
func (l *Layer) drag(t Tool, start, at [2]float64) {
	switch t {
	case MarkPen:
		l.path = append(l.path, at)
		l.p.surface.showPath(l.path, false)
	case MarkArrow:
		l.path = [][2]float64{start, at}
		l.p.surface.showPath(l.path, false)
	case MarkCircle:
		l.path = [][2]float64{start, at}
		r := math.Hypot(at[0]-start[0], at[1]-start[1])
		ring := make([][2]float64, 48)
		for i := range ring {
			a := 2 * math.Pi * float64(i) / float64(len(ring))
			ring[i] = [2]float64{start[0] + r*math.Cos(a), start[1] + r*math.Sin(a)}
		}
		l.p.surface.showPath(ring, true)
	}
}

// end keeps the mark drawn.
func (l *Layer) end(t Tool) {
	l.p.surface.clearGuides()
	kind := map[Tool]markup.Kind{MarkPen: markup.Pen, MarkArrow: markup.Arrow, MarkCircle: markup.Circle}[t]
	if kind == "" || len(l.path) == 0 {
		return
	}
	l.add(markup.Mark{Kind: kind, Points: l.path})
	l.path = nil
}
