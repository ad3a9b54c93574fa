package maskpaint

import (
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/markup"
	"easel/internal/mask"
)

// tileSize is the side of the tint's tiles, in image pixels: a stroke
// redraws (and the driver uploads) only the tiles it touched, not a
// 4096-pixel overlay.
const tileSize = 256

// guideColour outlines a rectangle or lasso being drawn, and the brush.
var guideColour = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd0}

// tile is one square of the tint.
type tile struct {
	r   image.Rectangle
	pix *image.NRGBA
	img *canvas.Image
}

// surface is the scrolled content: the image at its zoom, the tint over
// it in tiles, the guides of a gesture and the brush's outline. It takes
// the pointer and hands it to the painter.
type surface struct {
	widget.BaseWidget
	p     *Painter
	base  *canvas.Image
	tiles []*tile
	// marks shows the marks' shapes over the tint, at the image's size;
	// notes their notes, each a chip of words at its place.
	marks  *canvas.Image
	notes  []noteChip
	rect   *canvas.Rectangle
	lasso  []fyne.CanvasObject
	cursor *canvas.Circle
	// pointer is where the mouse is over the surface, for the brush's
	// outline; in is whether it is.
	pointer fyne.Position
	in      bool
}

func newSurface(p *Painter) *surface {
	s := &surface{p: p, base: &canvas.Image{FillMode: canvas.ImageFillStretch}, marks: &canvas.Image{FillMode: canvas.ImageFillStretch}}
	s.marks.Hide()
	s.rect = canvas.NewRectangle(color.Transparent)
	s.rect.StrokeColor, s.rect.StrokeWidth = guideColour, 1
	s.rect.Hide()
	s.cursor = canvas.NewCircle(color.Transparent)
	s.cursor.StrokeColor, s.cursor.StrokeWidth = guideColour, 1
	s.cursor.Hide()
	s.ExtendBaseWidget(s)
	return s
}

// newTiles are the tint's tiles over m, filled: built off the UI
// goroutine (Prepare), their images not yet shown.
func newTiles(m *mask.Mask) []*tile {
	var tiles []*tile
	b := m.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += tileSize {
		for x := b.Min.X; x < b.Max.X; x += tileSize {
			r := image.Rect(x, y, x+tileSize, y+tileSize).Intersect(b)
			pix := image.NewNRGBA(r)
			tiles = append(tiles, &tile{r: r, pix: pix, img: &canvas.Image{Image: pix, FillMode: canvas.ImageFillStretch}})
		}
	}
	fill(tiles, m, b)
	return tiles
}

// setPrepared shows a prepared image with its mask's tint.
func (s *surface) setPrepared(pr *Prepared) {
	s.base.Image = pr.img
	s.tiles = pr.tiles
	s.showTint()
	s.base.Refresh()
	s.Refresh()
}

// setMarks shows the marks drawn (nil: none).
func (s *surface) setMarks(img *image.NRGBA) {
	if img == nil {
		s.marks.Image = nil
		s.marks.Hide()
	} else {
		s.marks.Image = img
		s.marks.Show()
	}
	s.marks.Refresh()
	s.Refresh()
}

// noteChip is a note on the painter: its words on a chip of the marks'
// colour, whose lower left is the note's place in the picture (where
// the words sit in the picture the service gets).
type noteChip struct {
	at   [2]float64
	bg   *canvas.Rectangle
	text *canvas.Text
}

// setNotes shows notes as chips in c.
func (s *surface) setNotes(notes []markup.Mark, c color.NRGBA) {
	s.notes = s.notes[:0]
	for _, n := range notes {
		if len(n.Points) == 0 {
			continue
		}
		text := canvas.NewText(n.Text, markup.Contrast(c))
		text.TextSize = theme.TextSize()
		bg := canvas.NewRectangle(c)
		bg.CornerRadius = 3
		s.notes = append(s.notes, noteChip{at: n.Points[0], bg: bg, text: text})
	}
	s.Refresh()
}

// showPath draws a mark's guide through image points, closed back to
// its start when closed.
func (s *surface) showPath(points [][2]float64, closed bool) { s.drawPath(points, closed, 2) }

// drawPath draws a guide of width units through image points; a long
// one through every nth point (the fill or the mark uses them all).
func (s *surface) drawPath(points [][2]float64, closed bool, width float32) {
	s.lasso = s.lasso[:0]
	at := func(q [2]float64) fyne.Position {
		x, y := s.p.area.View.ToContent(q[0], q[1])
		return fyne.NewPos(float32(x), float32(y))
	}
	step := max(1, len(points)/400)
	for i := 0; i+step < len(points) || closed && i < len(points); i += step {
		j := i + step
		if j >= len(points) {
			j = 0
		}
		l := canvas.NewLine(guideColour)
		l.StrokeWidth = width
		l.Position1, l.Position2 = at(points[i]), at(points[j])
		s.lasso = append(s.lasso, l)
	}
	s.Refresh()
}

// retint redraws the tint within r, in the tiles it touches only.
func (s *surface) retint(r image.Rectangle) {
	m := s.p.m
	if m == nil {
		return
	}
	for _, t := range fill(s.tiles, m, r) {
		t.img.Refresh()
	}
}

// fill tints the tiles over r from m and returns those it touched.
func fill(tiles []*tile, m *mask.Mask, r image.Rectangle) []*tile {
	var touched []*tile
	a := m.Alpha()
	for _, t := range tiles {
		in := r.Intersect(t.r)
		if in.Empty() {
			continue
		}
		for y := in.Min.Y; y < in.Max.Y; y++ {
			src := a.Pix[a.PixOffset(in.Min.X, y):a.PixOffset(in.Max.X, y)]
			dst := t.pix.Pix[t.pix.PixOffset(in.Min.X, y):]
			for i, v := range src {
				dst[4*i], dst[4*i+1], dst[4*i+2], dst[4*i+3] = tint.R, tint.G, tint.B, v
			}
		}
		touched = append(touched, t)
	}
	return touched
}

// showTint applies the tint's opacity and H.
func (s *surface) showTint() {
	for _, t := range s.tiles {
		t.img.Translucency = 1 - s.p.opacity
		t.img.Hidden = s.p.hidden
		t.img.Refresh()
	}
}

// showRect outlines the rectangle being drawn, between image points.
func (s *surface) showRect(a, b [2]float64) {
	r := image.Rectangle{pt(a), pt(b)}.Canon()
	r.Max = r.Max.Add(image.Pt(1, 1))
	x0, y0 := s.p.area.View.ToContent(float64(r.Min.X), float64(r.Min.Y))
	x1, y1 := s.p.area.View.ToContent(float64(r.Max.X), float64(r.Max.Y))
	s.rect.Move(fyne.NewPos(float32(x0), float32(y0)))
	s.rect.Resize(fyne.NewSize(float32(x1-x0), float32(y1-y0)))
	s.rect.Show()
	s.rect.Refresh()
}

// showLasso draws the lasso's outline so far, closed back to its start,
// through the middle of each pixel it went through, as a thinner line
// than a mark's guide.
func (s *surface) showLasso(points []image.Point) {
	centres := make([][2]float64, len(points))
	for i, q := range points {
		centres[i] = [2]float64{float64(q.X) + 0.5, float64(q.Y) + 0.5}
	}
	s.drawPath(centres, true, 1)
}

// clearGuides hides the gesture's outline once it is done.
func (s *surface) clearGuides() {
	s.rect.Hide()
	s.lasso = nil
	s.Refresh()
}

// showCursor draws the brush's outline at the pointer, at its size.
func (s *surface) showCursor() {
	if !s.in || s.p.m == nil || s.p.Tool != Brush {
		s.cursor.Hide()
		s.cursor.Refresh()
		return
	}
	r := float32(s.p.Radius * s.p.area.View.Zoom)
	s.cursor.Move(s.pointer.SubtractXY(r, r))
	s.cursor.Resize(fyne.NewSize(2*r, 2*r))
	s.cursor.Show()
	s.cursor.Refresh()
}

// Tapped implements fyne.Tappable.
func (s *surface) Tapped(e *fyne.PointEvent) { s.p.tapped(e.Position) }

// Dragged implements fyne.Draggable.
func (s *surface) Dragged(e *fyne.DragEvent) {
	s.pointer = e.Position
	s.p.dragged(e.Position)
	s.showCursor()
}

// DragEnd implements fyne.Draggable.
func (s *surface) DragEnd() { s.p.dragEnd() }

// Scrolled implements fyne.Scrollable: Ctrl zooms, else it pans.
func (s *surface) Scrolled(e *fyne.ScrollEvent) {
	s.p.wheel(e)
	s.pointer = e.Position
	s.showCursor()
}

// MouseIn implements desktop.Hoverable.
func (s *surface) MouseIn(e *desktop.MouseEvent) { s.MouseMoved(e) }

// MouseMoved implements desktop.Hoverable: the brush's outline follows.
func (s *surface) MouseMoved(e *desktop.MouseEvent) {
	s.in, s.pointer = true, e.Position
	s.showCursor()
}

// MouseOut implements desktop.Hoverable.
func (s *surface) MouseOut() {
	s.in = false
	s.showCursor()
}

// MinSize is the image at its zoom.
func (s *surface) MinSize() fyne.Size {
	v := s.p.area.View
	return fyne.NewSize(float32(float64(v.Size.X)*v.Zoom), float32(float64(v.Size.Y)*v.Zoom))
}

// CreateRenderer implements fyne.Widget.
func (s *surface) CreateRenderer() fyne.WidgetRenderer { return &surfaceRenderer{s: s} }

type surfaceRenderer struct{ s *surface }

// Layout places the image and its tiles by the painter's view, which the
// pointer is mapped by too.
func (r *surfaceRenderer) Layout(size fyne.Size) {
	s := r.s
	v := s.p.area.View
	ox, oy := v.Origin()
	pixels := canvas.ImageScaleSmooth
	if v.Zoom*s.p.area.Scale() >= 2 {
		pixels = canvas.ImageScalePixels // individual pixels, to paint them
	}
	s.base.ScaleMode = pixels
	s.base.Move(fyne.NewPos(float32(ox), float32(oy)))
	s.base.Resize(fyne.NewSize(float32(float64(v.Size.X)*v.Zoom), float32(float64(v.Size.Y)*v.Zoom)))
	s.marks.Move(s.base.Position())
	s.marks.Resize(s.base.Size())
	pad := theme.Padding() / 2
	for _, n := range s.notes {
		x, y := v.ToContent(n.at[0], n.at[1])
		size := n.text.MinSize()
		top := fyne.NewPos(float32(x), float32(y)-size.Height)
		n.bg.Move(top.SubtractXY(pad, pad))
		n.bg.Resize(size.AddWidthHeight(2*pad, 2*pad))
		n.text.Move(top)
		n.text.Resize(size)
	}
	for _, t := range s.tiles {
		x0, y0 := v.ToContent(float64(t.r.Min.X), float64(t.r.Min.Y))
		x1, y1 := v.ToContent(float64(t.r.Max.X), float64(t.r.Max.Y))
		t.img.ScaleMode = pixels
		t.img.Move(fyne.NewPos(float32(x0), float32(y0)))
		t.img.Resize(fyne.NewSize(float32(x1-x0), float32(y1-y0)))
	}
}

func (r *surfaceRenderer) MinSize() fyne.Size { return r.s.MinSize() }

func (r *surfaceRenderer) Refresh() {
	r.Layout(r.s.Size())
	canvas.Refresh(r.s)
}

func (r *surfaceRenderer) Objects() []fyne.CanvasObject {
	s := r.s
	objs := make([]fyne.CanvasObject, 0, 4+len(s.tiles)+len(s.lasso)+2*len(s.notes))
	objs = append(objs, s.base)
	for _, t := range s.tiles {
		objs = append(objs, t.img)
	}
	objs = append(objs, s.marks)
	for _, n := range s.notes {
		objs = append(objs, n.bg, n.text)
	}
	objs = append(objs, s.lasso...)
	return append(objs, s.rect, s.cursor)
}

func (r *surfaceRenderer) Destroy() {}
