// Package maskpaint is the mask painter: an image with its mask over it
// in a tint, painted with the mouse. A drag paints with a round brush (or
// erases), or draws a rectangle or a lasso that fills in one gesture;
// [ and ] change the brush, E toggles the eraser, H hides the tint,
// Ctrl+Z and Ctrl+Shift+Z undo and redo; Ctrl+wheel, Ctrl+= and Ctrl+-
// zoom about the pointer, Ctrl+0 fits and Ctrl+1 shows 100 %, the wheel
// and the scroll bars pan. The logic is internal/mask's (the mask, and
// the View that maps the pointer to pixels); this widget draws and feeds
// it gestures. It knows nothing of the app.
package maskpaint

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"easel/internal/markup"
	"easel/internal/mask"
	"easel/ui/widgets/zoomarea"
)

// Tool is what a drag does.
type Tool int

// The tools: three paint the mask; the rest draw marks over the image
// (internal/markup), which tell the model what to change.
const (
	Brush Tool = iota
	Rectangle
	Lasso
	MarkPen
	MarkArrow
	MarkCircle
	MarkNote
)

// marking reports whether t draws marks rather than painting the mask.
func (t Tool) marking() bool { return t >= MarkPen }

// tint is the colour painted areas show in: what may change.
var tint = color.NRGBA{R: 0xff, G: 0x30, B: 0x60, A: 0xff}

// modifiers is the keyboard's modifiers now, so the wheel can tell a
// zoom (Ctrl held) from a pan; tests replace it.
var modifiers = func() fyne.KeyModifier {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// Painter is the mask painter widget.
type Painter struct {
	widget.BaseWidget
	// Tool, Radius (in image pixels), Hardness (0–1) and Erase are the
	// brush; change them from the tab's controls.
	Tool     Tool
	Radius   float64
	Hardness float64
	Erase    bool
	// OnChanged is told after every change of the mask or the marks, and
	// of the brush, the tint or the zoom by a key, so the tab's controls
	// can follow.
	OnChanged func()
	// OnNote is told where a note was asked for (a tap with MarkNote):
	// the tab asks for its words and calls Marks.AddNote.
	OnNote func(at [2]float64)
	// Marks are drawn over the image, apart from the mask.
	Marks *Layer

	m       *mask.Mask
	img     image.Image
	opacity float64
	hidden  bool
	// area is the zoom and the scroll, which the surface draws by.
	area    *zoomarea.Area
	minSize fyne.Size
	surface *surface
	// The gesture in progress, in image pixels.
	dragging bool
	last     [2]float64
	start    [2]float64
	outline  []image.Point
}

// New makes an empty painter that asks for at least minSize.
func New(minSize fyne.Size) *Painter {
	p := &Painter{Radius: 24, Hardness: 0.8, opacity: 0.55, minSize: minSize}
	p.surface = newSurface(p)
	p.Marks = &Layer{p: p}
	p.area = zoomarea.New(p, p.surface)
	p.area.OnZoom = p.changed // the zoom shown follows
	p.ExtendBaseWidget(p)
	return p
}

// SetImage shows img and starts an empty mask of its size.
func (p *Painter) SetImage(img image.Image) { p.SetImageMask(img, nil) }

// SetImageMask shows img with m, a mask painted on it before (with its
// undo history), so a mask stays with its image; a nil m, or one of
// another size, starts an empty mask. A new image is shown whole.
func (p *Painter) SetImageMask(img image.Image, m *mask.Mask) { p.SetPrepared(Prepare(img, m)) }

// Prepared is an image made ready to paint a mask on: its mask and the
// tiles of tint that show it. For a 3600-pixel picture they are 65 MB
// to allocate and fill, a tenth of a second the window would stall, so
// Prepare builds them off the UI goroutine and SetPrepared only shows
// them.
type Prepared struct {
	img image.Image
	m   *mask.Mask
	// fresh is a new empty mask (not one painted before), whose brush
	// starts at the image's scale.
	fresh bool
	tiles []*tile
}

// Prepare readies img with m, a mask painted on it before; a nil m, or
// one of another size, is a new empty mask. It touches no widget: call
// it from any goroutine, with m not being painted meanwhile.
func Prepare(img image.Image, m *mask.Mask) *Prepared {
	pr := &Prepared{img: img}
	if img == nil {
		return pr
	}
	if m == nil || m.Bounds().Size() != img.Bounds().Size() {
		m, pr.fresh = mask.New(img.Bounds().Dx(), img.Bounds().Dy()), true
	}
	pr.m, pr.tiles = m, newTiles(m)
	return pr
}

// Mask is the mask a Prepared image is shown with.
func (pr *Prepared) Mask() *mask.Mask { return pr.m }

// SetPrepared shows an image Prepare readied.
func (p *Painter) SetPrepared(pr *Prepared) {
	if pr.img != p.img {
		p.Marks.marks = markup.Marks{} // marks are drawn on one image
	}
	p.img, p.m = pr.img, pr.m
	if pr.fresh {
		// A new image starts with a brush of its scale: a thirtieth of
		// its long side, as a 24-pixel brush would cover a quarter of
		// an icon and a speck of a poster.
		long := max(pr.img.Bounds().Dx(), pr.img.Bounds().Dy())
		p.Radius = math.Max(2, math.Min(300, math.Round(float64(long)/30)))
	}
	size := image.Point{}
	if pr.m != nil {
		size = pr.m.Bounds().Size()
	}
	p.surface.setPrepared(pr)
	p.Marks.show()
	p.area.SetSize(size)
}

// Image is the image the mask is painted on, nil for none.
func (p *Painter) Image() image.Image { return p.img }

// Mask is the mask being painted, nil without an image.
func (p *Painter) Mask() *mask.Mask { return p.m }

// Do runs f on the mask (Invert, Clear, Fill, Undo, Redo) and redraws.
func (p *Painter) Do(f func(*mask.Mask)) {
	if p.m == nil {
		return
	}
	f(p.m)
	p.surface.retint(p.m.Bounds())
	p.changed()
}

// Opacity is how strongly the tint shows, 0 to 1.
func (p *Painter) Opacity() float64 { return p.opacity }

// SetOpacity sets how strongly the tint shows, 0 to 1.
func (p *Painter) SetOpacity(o float64) {
	p.opacity = math.Max(0, math.Min(1, o))
	p.surface.showTint()
}

// TintHidden reports whether the tint is hidden (H), to see the image
// plain.
func (p *Painter) TintHidden() bool { return p.hidden }

// SetTintHidden hides or shows the tint.
func (p *Painter) SetTintHidden(h bool) {
	p.hidden = h
	p.surface.showTint()
}

// Zoom is the painter's view: its zoom (View.Zoom, Percent) and the
// steps the zoom buttons take (ZoomIn, ZoomOut, Fit, Actual).
func (p *Painter) Zoom() *zoomarea.Area { return p.area }

// toImage maps a position on the surface (the scrolled content) to the
// image's pixels, with their fraction.
func (p *Painter) toImage(pos fyne.Position) [2]float64 {
	x, y := p.area.View.ToImage(float64(pos.X), float64(pos.Y))
	return [2]float64{x, y}
}

func pt(f [2]float64) image.Point {
	return image.Pt(int(math.Floor(f[0])), int(math.Floor(f[1])))
}

// tapped dabs the brush once.
func (p *Painter) tapped(pos fyne.Position) {
	p.requestFocus()
	if p.m != nil && p.Tool == MarkNote && p.OnNote != nil {
		p.OnNote(p.toImage(pos))
		return
	}
	if p.m != nil && p.Tool == MarkPen {
		p.Marks.add(markup.Mark{Kind: markup.Pen, Points: [][2]float64{p.toImage(pos)}})
		return
	}
	if p.m == nil || p.Tool != Brush {
		return
	}
	at := p.toImage(pos)
	p.m.Begin()
	p.m.Dab(at[0], at[1], p.Radius, p.Hardness, p.Erase)
	p.m.End()
	p.surface.retint(p.around(at, at))
	p.changed()
}

// dragged paints along the drag, or follows the rectangle or the lasso.
func (p *Painter) dragged(pos fyne.Position) {
	if p.m == nil {
		return
	}
	at := p.toImage(pos)
	if !p.dragging {
		p.requestFocus()
		p.dragging, p.start, p.last, p.outline = true, at, at, []image.Point{pt(at)}
		p.Marks.path = [][2]float64{at}
		if p.Tool == Brush {
			p.m.Begin()
		}
	}
	if p.Tool.marking() {
		p.Marks.drag(p.Tool, p.start, at)
		p.last = at
		return
	}
	switch p.Tool {
	case Brush:
		p.m.Line(p.last[0], p.last[1], at[0], at[1], p.Radius, p.Hardness, p.Erase)
		p.surface.retint(p.around(p.last, at))
	case Rectangle:
		p.surface.showRect(p.start, at)
	case Lasso:
		if q := pt(at); q != p.outline[len(p.outline)-1] {
			p.outline = append(p.outline, q)
			p.surface.showLasso(p.outline)
		}
	}
	p.last = at
}

// dragEnd finishes the gesture as one step.
func (p *Painter) dragEnd() {
	if p.m == nil || !p.dragging {
		return
	}
	p.dragging = false
	if p.Tool.marking() {
		p.Marks.end(p.Tool)
		return
	}
	switch p.Tool {
	case Brush:
		p.m.End()
	case Rectangle:
		r := image.Rectangle{pt(p.start), pt(p.last)}.Canon()
		r.Max = r.Max.Add(image.Pt(1, 1))
		p.m.Rect(r, p.Erase)
		p.surface.retint(r)
	case Lasso:
		p.m.Lasso(p.outline, p.Erase)
		p.surface.retint(p.m.Bounds())
	}
	p.surface.clearGuides()
	p.changed()
}

// wheel zooms about the pointer with Ctrl held, and pans otherwise.
func (p *Painter) wheel(e *fyne.ScrollEvent) { p.area.Wheel(e, modifiers()) }

// around is the image area a stroke from a to b changes.
func (p *Painter) around(a, b [2]float64) image.Rectangle {
	r := int(math.Ceil(p.Radius)) + 1
	return image.Rectangle{pt(a), pt(b)}.Canon().Inset(-r)
}

func (p *Painter) changed() {
	if p.OnChanged != nil {
		p.OnChanged()
	}
}

func (p *Painter) requestFocus() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(p); c != nil {
		c.Focus(p)
	}
}

// FocusGained implements fyne.Focusable: the painter takes keys once
// clicked or painted on.
func (p *Painter) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (p *Painter) FocusLost() {}

// TypedRune changes the brush: [ smaller, ] larger, E toggles the eraser,
// H hides or shows the tint.
func (p *Painter) TypedRune(r rune) {
	switch r {
	case '[':
		p.Radius = math.Max(1, p.Radius/1.25)
	case ']':
		p.Radius = math.Min(1000, p.Radius*1.25)
	case 'e', 'E':
		p.Erase = !p.Erase
	case 'h', 'H':
		p.SetTintHidden(!p.hidden)
	default:
		return
	}
	p.surface.showCursor()
	p.changed()
}

// TypedKey implements fyne.Focusable.
func (p *Painter) TypedKey(*fyne.KeyEvent) {}

// TypedShortcut undoes (Ctrl+Z) and redoes (Ctrl+Shift+Z, Ctrl+Y), as
// the driver names them (fyne.ShortcutUndo, fyne.ShortcutRedo), and
// zooms: Ctrl+= (or Ctrl++) in, Ctrl+- out, Ctrl+0 to fit, Ctrl+1 to
// 100 %.
func (p *Painter) TypedShortcut(s fyne.Shortcut) {
	switch x := s.(type) {
	case *fyne.ShortcutUndo:
		p.Do((*mask.Mask).Undo)
	case *fyne.ShortcutRedo:
		p.Do((*mask.Mask).Redo)
	case *desktop.CustomShortcut:
		// On Linux and Windows the driver names only Ctrl+Y redo;
		// Ctrl+Shift+Z comes as a shortcut of its own.
		if x.KeyName == fyne.KeyZ && x.Modifier == fyne.KeyModifierShortcutDefault|fyne.KeyModifierShift {
			p.Do((*mask.Mask).Redo)
			return
		}
		p.area.Shortcut(s)
	default:
		p.area.Shortcut(s)
	}
}

// ClaimShortcut takes a shortcut the window also has (Ctrl+1 is 100 %
// here and Chat for the window) while the painter has the keys, and
// reports whether it did: the window's menu asks before acting.
func (p *Painter) ClaimShortcut(s fyne.Shortcut) bool { return p.area.Shortcut(s) }

// MinSize implements fyne.Widget.
func (p *Painter) MinSize() fyne.Size { return p.minSize }

// CreateRenderer implements fyne.Widget.
func (p *Painter) CreateRenderer() fyne.WidgetRenderer {
	return &painterRenderer{area: p.area, minSize: p.minSize}
}

// painterRenderer lays the scrolled surface over the whole widget: it
// holds what it draws (the zoom area and its scroll), as Fyne's own
// renderers hold their objects, not the painter.
type painterRenderer struct {
	area    *zoomarea.Area
	minSize fyne.Size
}

func (r *painterRenderer) Layout(s fyne.Size)           { r.area.Resize(s) }
func (r *painterRenderer) MinSize() fyne.Size           { return r.minSize }
func (r *painterRenderer) Refresh()                     { r.area.Scroll.Refresh() }
func (r *painterRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.area.Scroll} }
func (r *painterRenderer) Destroy()                     {}
