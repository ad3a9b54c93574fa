package imageio

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fyne-io/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"

	"easel/internal/catalogue"
)

// SVG results (GPT Image 2.6) are stored as the service sent them and
// drawn to pixels only to be shown: thumbnails, the large view, Compare.
// The drawing is oksvg's (the renderer Fyne itself uses for its icons),
// which runs no script and fetches nothing: it knows no <script>,
// <image> or <foreignObject>, and <use> reaches only the file's own
// definitions. What a hostile file could still do — declare entities that
// expand a billionfold, carry a hundred thousand elements, claim a
// gigapixel canvas — is refused by reading it once with encoding/xml
// before oksvg sees it (svgBounds), and the canvas is bounded like every
// image Easel reads.

// SVG bounds: the largest file drawn, the most elements and path
// commands in it, and the longest side it is drawn at.
const (
	MaxSVGBytes    = 8 << 20
	MaxSVGElements = 20_000
	MaxSVGCommands = 200_000
	MaxSVGDepth    = 512
	// MaxSVGStops bounds the gradient stops of a file: the rasteriser
	// looks each pixel of a gradient fill up among its stops, so 19,000
	// stops made one fill of one path minutes of work, inside a single
	// call nothing can interrupt.
	MaxSVGStops = 1024
	// SVGSide is the long side an SVG is drawn at when it does not say
	// its size, and the most it is drawn at when it does.
	SVGSide = 2048
)

func init() {
	image.RegisterFormat("svg", "<svg", decodeSVG, decodeSVGConfig)
	image.RegisterFormat("svg", "<?xml", decodeSVG, decodeSVGConfig)
	image.RegisterFormat("svg", "\xef\xbb\xbf<", decodeSVG, decodeSVGConfig)
}

// svgRoot reports whether data is an SVG document — XML whose first
// element is <svg> — whether or not it is safe to draw, and the size its
// root asks for. It reads no further than that element.
func svgRoot(data []byte) (svgSize, bool) {
	d := xml.NewDecoder(bytes.NewReader(data[:min(len(data), 64<<10)]))
	d.Strict = true
	for {
		tok, err := d.RawToken()
		if err != nil {
			return svgSize{}, false
		}
		if t, ok := tok.(xml.StartElement); ok {
			return rootSize(t.Attr), t.Name.Local == "svg"
		}
	}
}

// svgSize is what an SVG says of itself: its drawing box and the size it
// asks to be shown at.
type svgSize struct {
	w, h float64
}

// errSVG is an SVG Easel will not draw; the file is still kept.
func errSVG(why string) error {
	return errors.New(catalogue.F("the SVG is not drawn: %s", why))
}

// svgBounds reads an SVG once, without drawing it, and refuses what
// would make drawing it unsafe or unbounded. It returns the size the
// root element asks for.
func svgBounds(r io.Reader) (svgSize, error) {
	lr := &io.LimitedReader{R: r, N: MaxSVGBytes + 1}
	d := xml.NewDecoder(bufio.NewReader(lr))
	d.Strict = true // an undeclared entity is an error, never expanded
	var size svgSize
	var n svgCounts
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			if lr.N <= 0 {
				return size, errSVG(catalogue.F("it is over %d MB", MaxSVGBytes>>20))
			}
			return size, errSVG(catalogue.T("it is not well-formed XML"))
		}
		switch t := tok.(type) {
		case xml.Directive:
			if bytes.Contains(bytes.ToUpper(t), []byte("ENTITY")) {
				return size, errSVG(catalogue.T("it declares entities, which can expand without end"))
			}
		case xml.StartElement:
			if n.elements == 0 {
				if t.Name.Local != "svg" {
					return size, errSVG(catalogue.T("its first element is not <svg>"))
				}
				size = rootSize(t.Attr)
			}
			if err := n.add(t); err != nil {
				return size, err
			}
		case xml.EndElement:
			n.depth--
		}
	}
	if n.elements == 0 {
		return size, errSVG(catalogue.T("it has no <svg> element"))
	}
	return size, nil
}

// svgCounts are what svgBounds has met so far of an SVG.
type svgCounts struct{ elements, commands, depth, stops int }

// add counts an element opened, and refuses what takes the counts past
// their bounds.
func (n *svgCounts) add(t xml.StartElement) error {
	n.elements++
	n.depth++
	if n.elements > MaxSVGElements {
		return errSVG(catalogue.F("it has more than %d elements", MaxSVGElements))
	}
	if n.depth > MaxSVGDepth {
		return errSVG(catalogue.F("its elements are nested more than %d deep", MaxSVGDepth))
	}
	if t.Name.Local == "stop" {
		if n.stops++; n.stops > MaxSVGStops {
			return errSVG(catalogue.F("its gradients have more than %d stops", MaxSVGStops))
		}
	}
	for _, a := range t.Attr {
		if a.Name.Local == "d" || a.Name.Local == "points" {
			n.commands += pathCommands(a.Value)
		}
	}
	if n.commands > MaxSVGCommands {
		return errSVG(catalogue.F("its paths have more than %d commands", MaxSVGCommands))
	}
	return nil
}

// pathCommands counts a path's drawing commands (or a polygon's points).
func pathCommands(d string) int {
	n := 0
	for _, r := range d {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' && r != 'e' || r == ',' {
			n++
		}
	}
	return n
}

// rootSize reads the root's width and height (in pixels, or unitless),
// else its viewBox.
func rootSize(attrs []xml.Attr) svgSize {
	var w, h float64
	var box []float64
	for _, a := range attrs {
		switch a.Name.Local {
		case "width":
			w = length(a.Value)
		case "height":
			h = length(a.Value)
		case "viewBox":
			for _, f := range strings.FieldsFunc(a.Value, func(r rune) bool { return r == ' ' || r == ',' }) {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					break
				}
				box = append(box, v)
			}
		}
	}
	if (w <= 0 || h <= 0) && len(box) == 4 {
		w, h = box[2], box[3]
	}
	return svgSize{w, h}
}

func length(s string) float64 {
	s = strings.TrimSuffix(strings.TrimSpace(s), "px")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0
	}
	return v
}

// drawSize is the pixel size an SVG of size s is drawn at: its own,
// scaled to fit SVGSide on its long side; a square of SVGSide when it
// says none.
func drawSize(s svgSize) (int, int) {
	if s.w <= 0 || s.h <= 0 || s.w/s.h > 64 || s.h/s.w > 64 {
		return SVGSide, SVGSide
	}
	k := float64(SVGSide) / math.Max(s.w, s.h)
	if math.Max(s.w, s.h) < SVGSide {
		k = 1
		if math.Max(s.w, s.h) < 256 {
			k = 256 / math.Max(s.w, s.h)
		}
	}
	return max(1, int(math.Round(s.w*k))), max(1, int(math.Round(s.h*k)))
}

func decodeSVGConfig(r io.Reader) (image.Config, error) {
	s, err := svgBounds(r)
	if err != nil {
		return image.Config{}, err
	}
	w, h := drawSize(s)
	return image.Config{ColorModel: color.NRGBAModel, Width: w, Height: h}, nil
}

// The counts svgBounds reads do not bound the work of drawing: one arc of
// radius 9e6 is flattened into millions of line segments, each crossing
// up to every row of the canvas, and every fill is drawn over the whole
// canvas. The drawing itself is metered, by the scanner every segment
// and fill passes through: a segment costs the rows it crosses, a fill
// the canvas's pixels. Past the budget or the deadline the drawing stops
// and the SVG is refused, as oksvg and rasterx take no context. The
// budgets are a few seconds of one core, far beyond any drawing a
// service has been seen to send; the deadline holds what they miss.
const (
	maxSVGLineWork = 100_000_000
	// segmentWork is a segment's own cost in rows: about what the
	// rasteriser spends on 32 rows, measured on the arcs of #53.
	segmentWork     = 32
	maxSVGFillPixel = 16_000_000_000
)

// SVGDeadline is how long decoding one SVG may take, whatever its
// counts: reading, parsing and drawing.
var SVGDeadline = 15 * time.Second

// errSVGWork is the panic the metered scanner stops a drawing with.
type errSVGWork struct{ why string }

// meteredScanner is rasterx's scanner, counting the work it is given.
type meteredScanner struct {
	*rasterx.ScannerGV
	area      int64
	rows      fixed.Int26_6
	last      fixed.Point26_6
	lineWork  int64
	fillWork  int64
	deadline  time.Time
	sinceTime int64
}

func (m *meteredScanner) Start(a fixed.Point26_6) {
	m.last = a
	m.ScannerGV.Start(a)
}

func (m *meteredScanner) Line(b fixed.Point26_6) {
	lo, hi := min(m.last.Y, b.Y), max(m.last.Y, b.Y)
	m.last = b
	work := segmentWork + int64(max(0, min(hi, m.rows)-max(lo, 0))>>6)
	if m.lineWork += work; m.lineWork > maxSVGLineWork {
		panic(errSVGWork{catalogue.T("drawing its paths takes too much work")})
	}
	// The clock is read every million units of work (~20 ms of one
	// core; a few hundred under -race), not every so many segments: a
	// segment across the whole canvas is a hundred times one that is not.
	if m.sinceTime += work; m.sinceTime >= 1<<20 {
		m.sinceTime = 0
		m.checkTime()
	}
	m.ScannerGV.Line(b)
}

func (m *meteredScanner) Draw() {
	// ScannerGV draws every fill over the whole canvas.
	if m.fillWork += m.area; m.fillWork > maxSVGFillPixel {
		panic(errSVGWork{catalogue.T("drawing it fills the canvas too many times")})
	}
	m.checkTime()
	m.ScannerGV.Draw()
}

func (m *meteredScanner) checkTime() {
	if time.Now().After(m.deadline) {
		panic(errSVGWork{catalogue.F("drawing it took longer than %s", catalogue.Duration(SVGDeadline))})
	}
}

// decodeSVG draws an SVG after svgBounds has passed it, at drawSize, on
// a transparent canvas, within the drawing budget.
func decodeSVG(r io.Reader) (img image.Image, err error) {
	// The deadline counts from here: reading and parsing the document
	// (bounded by svgBounds' counts, but not interruptible) are part of
	// what it may take.
	deadline := time.Now().Add(SVGDeadline)
	data, err := io.ReadAll(io.LimitReader(r, MaxSVGBytes+1))
	if err != nil {
		return nil, err
	}
	s, err := svgBounds(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	w, h := drawSize(s)
	icon, err := oksvg.ReadIconStream(bytes.NewReader(data), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, errSVG(err.Error())
	}
	icon.SetTarget(0, 0, float64(w), float64(h))
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	scanner := &meteredScanner{
		ScannerGV: rasterx.NewScannerGV(w, h, canvas, canvas.Bounds()),
		area:      int64(w) * int64(h),
		rows:      fixed.I(h),
		deadline:  deadline,
	}
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(errSVGWork)
			if !ok {
				panic(r)
			}
			img, err = nil, errSVG(stop.why)
		}
	}()
	icon.Draw(rasterx.NewDasher(w, h, scanner), 1)
	return canvas, nil
}
