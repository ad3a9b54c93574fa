// Package maskpaint is the mask painter: an image with its mask over it
// in a tint, painted with the mouse. A drag paints with a round brush (or
// erases), or draws a rectangle or a lasso that fills in one gesture;
// [ and ] change the brush, E toggles the eraser, Ctrl+Z and Ctrl+Shift+Z
// undo and redo. The logic is internal/mask's; this widget only maps the
// pointer to the image's pixels and draws. It knows nothing of the app.
package maskpaint

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/mask"
)

// Tool is what a drag does.
type Tool int

// The tools.
const (
	Brush Tool = iota
	Rectangle
	Lasso
)

// tint is the colour painted areas show in: what may change.
var tint = color.NRGBA{R: 0xff, G: 0x30, B: 0x60, A: 0x90}

// Painter is the mask painter widget.
type Painter struct {
	widget.BaseWidget
	// Tool, Radius (in image pixels), Hardness (0–1) and Erase are the
	// brush; change them from the tab's controls.
	Tool     Tool
	Radius   float64
	Hardness float64
	Erase    bool
	// OnChanged is told after every change of the mask, and of the brush
	// by a key, so the tab's controls can follow.
	OnChanged func()

	m       *mask.Mask
	base    *canvas.Image
	overlay *canvas.Image
	tinted  *image.NRGBA
	// The gesture in progress, in image pixels.
	dragging bool
	last     image.Point
	start    image.Point
	outline  []image.Point
	minSize  fyne.Size
}

// New makes an empty painter that asks for at least minSize.
func New(minSize fyne.Size) *Painter {
	p := &Painter{Radius: 24, Hardness: 0.8, minSize: minSize,
		base: &canvas.Image{FillMode: canvas.ImageFillContain}, overlay: &canvas.Image{FillMode: canvas.ImageFillContain}}
	p.ExtendBaseWidget(p)
	return p
}

// SetImage shows img and starts an empty mask of its size.
func (p *Painter) SetImage(img image.Image) { p.SetImageMask(img, nil) }

// SetImageMask shows img with m, a mask painted on it before (with its
// undo history), so a mask stays with its image; a nil m, or one of
// another size, starts an empty mask.
func (p *Painter) SetImageMask(img image.Image, m *mask.Mask) {
	p.base.Image = img
	p.m, p.tinted, p.overlay.Image = nil, nil, nil
	if img != nil {
		if m == nil || m.Bounds().Size() != img.Bounds().Size() {
			m = mask.New(img.Bounds().Dx(), img.Bounds().Dy())
		}
		p.m = m
		p.tinted = image.NewNRGBA(m.Bounds())
		p.overlay.Image = p.tinted
		p.retint(m.Bounds())
	}
	p.Refresh()
}

// Image is the image the mask is painted on, nil for none.
func (p *Painter) Image() image.Image { return p.base.Image }

// Mask is the mask being painted, nil without an image.
func (p *Painter) Mask() *mask.Mask { return p.m }

// Do runs f on the mask (Invert, Clear, Fill, Undo, Redo) and redraws.
func (p *Painter) Do(f func(*mask.Mask)) {
	if p.m == nil {
		return
	}
	f(p.m)
	p.retint(p.m.Bounds())
	p.changed()
}

// toImage maps a position in the widget to the image's pixels.
func (p *Painter) toImage(pos fyne.Position) (image.Point, float64) {
	b := p.m.Bounds()
	s := p.Size()
	scale := math.Min(float64(s.Width)/float64(b.Dx()), float64(s.Height)/float64(b.Dy()))
	if scale <= 0 {
		return image.Point{}, 1
	}
	ox := (float64(s.Width) - float64(b.Dx())*scale) / 2
	oy := (float64(s.Height) - float64(b.Dy())*scale) / 2
	return image.Pt(int((float64(pos.X)-ox)/scale), int((float64(pos.Y)-oy)/scale)), scale
}

// Tapped dabs the brush once.
func (p *Painter) Tapped(e *fyne.PointEvent) {
	p.requestFocus()
	if p.m == nil || p.Tool != Brush {
		return
	}
	pt, _ := p.toImage(e.Position)
	p.m.Begin()
	p.m.Dab(float64(pt.X), float64(pt.Y), p.Radius, p.Hardness, p.Erase)
	p.m.End()
	p.retint(p.around(pt, pt))
	p.changed()
}

// Dragged paints along the drag, or follows the rectangle or the lasso.
func (p *Painter) Dragged(e *fyne.DragEvent) {
	if p.m == nil {
		return
	}
	pt, _ := p.toImage(e.Position)
	if !p.dragging {
		p.requestFocus()
		p.dragging, p.start, p.last, p.outline = true, pt, pt, []image.Point{pt}
		if p.Tool == Brush {
			p.m.Begin()
		}
	}
	switch p.Tool {
	case Brush:
		p.m.Line(float64(p.last.X), float64(p.last.Y), float64(pt.X), float64(pt.Y), p.Radius, p.Hardness, p.Erase)
		p.retint(p.around(p.last, pt))
	case Lasso:
		p.outline = append(p.outline, pt)
	}
	p.last = pt
}

// DragEnd finishes the gesture as one step.
func (p *Painter) DragEnd() {
	if p.m == nil || !p.dragging {
		return
	}
	p.dragging = false
	switch p.Tool {
	case Brush:
		p.m.End()
	case Rectangle:
		p.m.Rect(image.Rectangle{p.start, p.last}.Canon(), p.Erase)
		p.retint(p.m.Bounds())
	case Lasso:
		p.m.Lasso(p.outline, p.Erase)
		p.retint(p.m.Bounds())
	}
	p.changed()
}

// around is the image area a stroke from a to b changes.
func (p *Painter) around(a, b image.Point) image.Rectangle {
	r := int(math.Ceil(p.Radius)) + 1
	return image.Rectangle{a, b}.Canon().Inset(-r)
}

// retint redraws the tint of the mask within r.
func (p *Painter) retint(r image.Rectangle) {
	r = r.Intersect(p.m.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := tint
			c.A = uint8(uint16(tint.A) * uint16(p.m.At(x, y)) / 255)
			p.tinted.SetNRGBA(x, y, c)
		}
	}
	p.overlay.Refresh()
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

// TypedRune changes the brush: [ smaller, ] larger, E toggles the eraser.
func (p *Painter) TypedRune(r rune) {
	switch r {
	case '[':
		p.Radius = math.Max(1, p.Radius/1.25)
	case ']':
		p.Radius = math.Min(1000, p.Radius*1.25)
	case 'e', 'E':
		p.Erase = !p.Erase
	default:
		return
	}
	p.changed()
}

// TypedKey implements fyne.Focusable.
func (p *Painter) TypedKey(*fyne.KeyEvent) {}

// TypedShortcut undoes (Ctrl+Z) and redoes (Ctrl+Shift+Z, Ctrl+Y), as
// the driver names them (fyne.ShortcutUndo, fyne.ShortcutRedo).
func (p *Painter) TypedShortcut(s fyne.Shortcut) {
	switch s.(type) {
	case *fyne.ShortcutUndo:
		p.Do((*mask.Mask).Undo)
	case *fyne.ShortcutRedo:
		p.Do((*mask.Mask).Redo)
	}
}

// MinSize implements fyne.Widget.
func (p *Painter) MinSize() fyne.Size { return p.minSize }

// CreateRenderer implements fyne.Widget.
func (p *Painter) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(p.base, p.overlay))
}
