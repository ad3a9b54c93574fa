// Package mask is the logic behind Edit's mask painter: an alpha mask the
// size of the first input, painted with a round brush (size and
// hardness), erased, filled by rectangles and lassos, inverted, cleared
// and filled, with undo and redo that keep only what each step changed, so
// fifty steps on a large image cost what they touched, not fifty masks. It
// knows nothing of windows (fyne-io/pixeledit's tools are the model): the
// painter widget draws it and feeds it gestures, and the tests drive it
// directly.
package mask

import (
	"bytes"
	"compress/flate"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"slices"
)

// MinUndo is how many steps can always be undone; older ones are dropped
// only beyond both it and MaxUndoBytes.
const MinUndo = 50

// MaxUndoBytes bounds the memory the undo and redo history may hold.
const MaxUndoBytes = 64 << 20

// Mask is painted where the image may change (255) and clear where it
// is kept (0).
type Mask struct {
	a          *image.Alpha
	undo, redo []step
	// before is the mask as a gesture began, while one is in progress;
	// dirty is what the gesture has touched so far.
	before []byte
	dirty  image.Rectangle
	// painted counts the pixels at 128 or more, kept as each change
	// happens: asking whether anything is painted (after every stroke)
	// must not scan megapixels.
	painted int
}

// step is one change, as the pixels of the rectangle it touched before
// and after it, compressed: a mask is long runs of 0 and 255, so even a
// step over a whole 16-megapixel mask keeps kilobytes, not megabytes.
type step struct {
	r             image.Rectangle
	before, after []byte
}

// squeeze compresses a step's pixels.
func squeeze(pix []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed)
	_, _ = w.Write(pix)
	_ = w.Close()
	return buf.Bytes()
}

// unsqueeze is squeeze undone, into n bytes.
func unsqueeze(data []byte, n int) []byte {
	out := make([]byte, n)
	_, _ = io.ReadFull(flate.NewReader(bytes.NewReader(data)), out)
	return out
}

func (s step) size() int { return len(s.before) + len(s.after) }

// New is an empty mask of w x h pixels: everything is kept.
func New(w, h int) *Mask {
	return &Mask{a: image.NewAlpha(image.Rect(0, 0, w, h))}
}

// Bounds is the mask's size.
func (m *Mask) Bounds() image.Rectangle { return m.a.Rect }

// At is the mask's value at (x, y): 0 kept, 255 painted.
func (m *Mask) At(x, y int) uint8 { return m.a.AlphaAt(x, y).A }

// Alpha is the mask itself, for drawing; do not change it.
func (m *Mask) Alpha() *image.Alpha { return m.a }

// Painted is the share of the image that may change, 0 to 1.
func (m *Mask) Painted() float64 {
	return float64(m.painted) / float64(max(1, len(m.a.Pix)))
}

// IsPainted reports whether any pixel may change.
func (m *Mask) IsPainted() bool { return m.painted > 0 }

// countPainted counts the painted pixels of r.
func (m *Mask) countPainted(r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := m.a.PixOffset(r.Min.X, y)
		for _, v := range m.a.Pix[i : i+r.Dx()] {
			if v >= 128 {
				n++
			}
		}
	}
	return n
}

// Begin starts a gesture (a stroke, a rectangle, a lasso): what it
// changes until End is one step to undo.
func (m *Mask) Begin() {
	m.before = bytes.Clone(m.a.Pix)
	m.dirty = image.Rectangle{}
}

// End finishes a gesture and records what it changed.
func (m *Mask) End() {
	if m.before == nil {
		return
	}
	r := m.dirty.Intersect(m.a.Rect)
	if !r.Empty() {
		before, after := crop(m.before, m.a.Stride, m.a.Rect, r), crop(m.a.Pix, m.a.Stride, m.a.Rect, r)
		if !bytes.Equal(before, after) {
			m.push(step{r: r, before: squeeze(before), after: squeeze(after)})
		}
	}
	m.before = nil
}

// push records a step, drops the redo history, and trims the oldest steps
// beyond MinUndo while the history is over MaxUndoBytes.
func (m *Mask) push(s step) {
	m.undo = append(m.undo, s)
	m.redo = nil
	total := 0
	for _, u := range m.undo {
		total += u.size()
	}
	for len(m.undo) > MinUndo && total > MaxUndoBytes {
		total -= m.undo[0].size()
		m.undo = m.undo[1:]
	}
}

// gesture runs f as one step of its own.
func (m *Mask) gesture(f func()) {
	m.Begin()
	f()
	m.End()
}

// Dab paints (or, erasing, clears) a round brush of the given radius
// centred at (cx, cy). Hardness, 0 to 1, is the share of the radius that
// is solid; the rest fades to nothing at the edge.
func (m *Mask) Dab(cx, cy, radius, hardness float64, erase bool) {
	radius = max(radius, 0.5)
	hardness = min(max(hardness, 0), 1)
	r := image.Rect(int(math.Floor(cx-radius)), int(math.Floor(cy-radius)), int(math.Ceil(cx+radius))+1, int(math.Ceil(cy+radius))+1).Intersect(m.a.Rect)
	m.touch(r)
	solid := radius * hardness
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			if d >= radius {
				continue
			}
			v := 255.0
			if d > solid {
				v = 255 * (radius - d) / (radius - solid)
			}
			m.apply(x, y, uint8(v), erase)
		}
	}
}

// Line dabs from (x0, y0) to (x1, y1), close enough together that the
// stroke has no gaps: a fast mouse still paints a line.
func (m *Mask) Line(x0, y0, x1, y1, radius, hardness float64, erase bool) {
	dist := math.Hypot(x1-x0, y1-y0)
	steps := max(1, int(math.Ceil(dist/max(radius/4, 0.5))))
	for i := 0; i <= steps; i++ {
		t := float64(i) / float64(steps)
		m.Dab(x0+(x1-x0)*t, y0+(y1-y0)*t, radius, hardness, erase)
	}
}

// apply paints v at (x, y): painting keeps the stronger value, erasing
// the weaker, so going over a spot twice does not stack.
func (m *Mask) apply(x, y int, v uint8, erase bool) {
	i := m.a.PixOffset(x, y)
	was := m.a.Pix[i] >= 128
	if erase {
		m.a.Pix[i] = min(m.a.Pix[i], 255-v)
	} else {
		m.a.Pix[i] = max(m.a.Pix[i], v)
	}
	if now := m.a.Pix[i] >= 128; now != was {
		if now {
			m.painted++
		} else {
			m.painted--
		}
	}
}

// touch adds r to what the gesture in progress changed.
func (m *Mask) touch(r image.Rectangle) {
	if m.dirty.Empty() {
		m.dirty = r
	} else {
		m.dirty = m.dirty.Union(r)
	}
}

// Rect paints (or clears) a rectangle, as one step.
func (m *Mask) Rect(r image.Rectangle, erase bool) {
	r = r.Canon().Intersect(m.a.Rect)
	m.gesture(func() {
		m.touch(r)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				m.apply(x, y, 255, erase)
			}
		}
	})
}

// Lasso paints (or clears) the inside of a closed outline, as one step.
func (m *Mask) Lasso(points []image.Point, erase bool) {
	if len(points) < 3 {
		return
	}
	var bb image.Rectangle
	for i, p := range points {
		if i == 0 {
			bb = image.Rectangle{p, p.Add(image.Pt(1, 1))}
		} else {
			bb = bb.Union(image.Rectangle{p, p.Add(image.Pt(1, 1))})
		}
	}
	bb = bb.Intersect(m.a.Rect)
	m.gesture(func() {
		m.touch(bb)
		// Scanlines through pixel centres, even-odd rule.
		xs := make([]float64, 0, len(points))
		for y := bb.Min.Y; y < bb.Max.Y; y++ {
			fy := float64(y) + 0.5
			xs = xs[:0]
			for i := range points {
				a, b := points[i], points[(i+1)%len(points)]
				ay, by := float64(a.Y), float64(b.Y)
				if (ay <= fy) != (by <= fy) {
					xs = append(xs, float64(a.X)+(fy-ay)/(by-ay)*float64(b.X-a.X))
				}
			}
			slices.Sort(xs)
			for i := 0; i+1 < len(xs); i += 2 {
				from := max(bb.Min.X, int(math.Ceil(xs[i]-0.5)))
				to := min(bb.Max.X, int(math.Ceil(xs[i+1]-0.5)))
				for x := from; x < to; x++ {
					m.apply(x, y, 255, erase)
				}
			}
		}
	})
}

// Invert swaps what is painted and what is kept, as one step.
func (m *Mask) Invert() {
	m.gesture(func() {
		m.touch(m.a.Rect)
		for i, v := range m.a.Pix {
			m.a.Pix[i] = 255 - v
		}
		// v >= 128 exactly when 255-v < 128.
		m.painted = len(m.a.Pix) - m.painted
	})
}

// Clear keeps everything; Fill lets everything change. Each is one step.
func (m *Mask) Clear() { m.Rect(m.a.Rect, true) }

// Fill paints the whole mask, as one step.
func (m *Mask) Fill() { m.Rect(m.a.Rect, false) }

// CanUndo and CanRedo say whether there is a step to go back or forward.
func (m *Mask) CanUndo() bool { return len(m.undo) > 0 }

// CanRedo says whether an undone step can be done again.
func (m *Mask) CanRedo() bool { return len(m.redo) > 0 }

// Undo goes back one step.
func (m *Mask) Undo() {
	m.undo, m.redo = m.replay(m.undo, m.redo, func(s step) []byte { return s.before })
}

// Redo does an undone step again.
func (m *Mask) Redo() {
	m.redo, m.undo = m.replay(m.redo, m.undo, func(s step) []byte { return s.after })
}

// replay takes the last step off from, puts its area back as it was
// before the step (undo) or after it (redo), and moves the step to to.
func (m *Mask) replay(from, to []step, area func(step) []byte) ([]step, []step) {
	if len(from) == 0 {
		return from, to
	}
	s := from[len(from)-1]
	m.paste(s.r, unsqueeze(area(s), s.r.Dx()*s.r.Dy()))
	return from[:len(from)-1], append(to, s)
}

// HistoryBytes is what the undo and redo history holds.
func (m *Mask) HistoryBytes() int {
	n := 0
	for _, s := range m.undo {
		n += s.size()
	}
	for _, s := range m.redo {
		n += s.size()
	}
	return n
}

// crop copies the pixels of r out of pix (of the given stride and bounds).
func crop(pix []byte, stride int, bounds, r image.Rectangle) []byte {
	out := make([]byte, 0, r.Dx()*r.Dy())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := (y-bounds.Min.Y)*stride + (r.Min.X - bounds.Min.X)
		out = append(out, pix[i:i+r.Dx()]...)
	}
	return out
}

// paste writes pixels cropped from r back into a.
func (m *Mask) paste(r image.Rectangle, pix []byte) {
	m.painted -= m.countPainted(r)
	paste(m.a, r, pix)
	m.painted += m.countPainted(r)
}

// paste copies pix (r's pixels, row after row) into a.
func paste(a *image.Alpha, r image.Rectangle, pix []byte) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := a.PixOffset(r.Min.X, y)
		copy(a.Pix[i:i+r.Dx()], pix[(y-r.Min.Y)*r.Dx():(y-r.Min.Y+1)*r.Dx()])
	}
}

// PNG is the mask as the edits endpoint takes it: a PNG the size of the
// first image whose transparent pixels mark where the image may change,
// opaque where it is kept.
func (m *Mask) PNG() ([]byte, error) {
	b := m.a.Rect
	img := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			img.SetNRGBA(x, y, color.NRGBA{0, 0, 0, 255 - m.At(x, y)})
		}
	}
	var buf bytes.Buffer
	err := png.Encode(&buf, img)
	return buf.Bytes(), err
}

// FromImage makes a mask of img, as painters hand masks around: a PNG
// with transparency marks the area to change with its transparent pixels
// (the service's own convention); an opaque image marks it in white, as
// black-and-white masks do.
func FromImage(img image.Image) *Mask {
	b := img.Bounds()
	m := New(b.Dx(), b.Dy())
	transparent := false
	for y := b.Min.Y; y < b.Max.Y && !transparent; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				transparent = true
				break
			}
		}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			v := 255 - c.A
			if !transparent {
				v = uint8((uint32(c.R)*299 + uint32(c.G)*587 + uint32(c.B)*114) / 1000)
			}
			m.a.SetAlpha(x-b.Min.X, y-b.Min.Y, color.Alpha{A: v})
		}
	}
	m.painted = m.countPainted(m.a.Rect)
	return m
}

// FromAlpha makes a mask painted as a says (255 painted, 0 not), with no
// history: a cut-out's removed area, to refine with the brush.
func FromAlpha(a *image.Alpha) *Mask {
	b := a.Bounds()
	m := New(b.Dx(), b.Dy())
	for y := 0; y < b.Dy(); y++ {
		copy(m.a.Pix[y*m.a.Stride:y*m.a.Stride+b.Dx()], a.Pix[a.PixOffset(b.Min.X, b.Min.Y+y):a.PixOffset(b.Min.X, b.Min.Y+y)+b.Dx()])
	}
	m.painted = m.countPainted(m.a.Rect)
	return m
}
