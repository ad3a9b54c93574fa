// Package barchart is a stacked bar chart drawn with Fyne's canvas
// primitives, in the current theme's colours: one bar per period, each
// split into its series' shares, round gridlines with their values, the
// periods below and a legend. It reads at a glance in the light and the
// dark theme alike, and knows nothing of the app: the spend view feeds it
// bars and a way to write an amount. The axis is chosen by
// internal/chartscale.
package barchart

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/chartscale"
)

// Bar is one bar: its label under it and a value per series, in the
// chart's series order (0 for a series absent from it).
type Bar struct {
	Label  string
	Values []float64
}

// Palette is the series' colours in order: distinct from each other and
// readable on both the light and the dark theme's background. A ninth
// series takes the first colour again.
var Palette = []color.NRGBA{
	{0x4c, 0x8b, 0xf5, 0xff}, // blue
	{0xf2, 0x9d, 0x38, 0xff}, // orange
	{0x3d, 0xae, 0x72, 0xff}, // green
	{0x9b, 0x6b, 0xd8, 0xff}, // purple
	{0xe0, 0x5a, 0x5a, 0xff}, // red
	{0x2b, 0xb3, 0xb1, 0xff}, // teal
	{0xd9, 0xb9, 0x37, 0xff}, // yellow
	{0x8a, 0x8f, 0x98, 0xff}, // grey
}

// Chart is the widget.
type Chart struct {
	widget.BaseWidget
	series []string
	bars   []Bar
	format func(float64) string
	// Empty is what an empty chart says, in the app's words.
	Empty string
}

// New makes an empty chart whose values are written by format.
func New(format func(float64) string) *Chart {
	c := &Chart{format: format}
	c.ExtendBaseWidget(c)
	return c
}

// Set shows bars of series (named in the legend, in this order).
func (c *Chart) Set(series []string, bars []Bar) {
	c.series, c.bars = series, bars
	c.Refresh()
}

// Bars are the bars shown, for tests.
func (c *Chart) Bars() []Bar { return c.bars }

// MinSize is enough for a few bars and their labels.
func (c *Chart) MinSize() fyne.Size { return fyne.NewSize(320, 200) }

// CreateRenderer implements fyne.Widget.
func (c *Chart) CreateRenderer() fyne.WidgetRenderer {
	r := &renderer{c: c}
	r.rebuild()
	return r
}

type renderer struct {
	c       *Chart
	grid    []*canvas.Line
	ticks   []*canvas.Text
	axis    chartscale.Axis
	rects   [][]*canvas.Rectangle // per bar, per series
	labels  []*canvas.Text
	swatch  []*canvas.Rectangle
	names   []*canvas.Text
	empty   *canvas.Text
	objects []fyne.CanvasObject
}

func (r *renderer) text(s string, size float32) *canvas.Text {
	t := canvas.NewText(s, theme.Color(theme.ColorNameForeground))
	t.TextSize = size
	return t
}

// rebuild makes the objects for the chart's bars and series.
func (r *renderer) rebuild() {
	c := r.c
	small := theme.CaptionTextSize()
	largest := 0.0
	for _, b := range c.bars {
		sum := 0.0
		for _, v := range b.Values {
			sum += v
		}
		largest = max(largest, sum)
	}
	r.axis = chartscale.Nice(largest, 4)
	r.grid, r.ticks, r.rects, r.labels, r.swatch, r.names = nil, nil, nil, nil, nil, nil
	r.objects = r.objects[:0]
	for _, v := range r.axis.Ticks() {
		l := canvas.NewLine(theme.Color(theme.ColorNameSeparator))
		l.StrokeWidth = 1
		r.grid = append(r.grid, l)
		t := r.text(c.format(v), small)
		t.Alignment = fyne.TextAlignTrailing
		r.ticks = append(r.ticks, t)
		r.objects = append(r.objects, l, t)
	}
	for _, b := range c.bars {
		var rs []*canvas.Rectangle
		for i := range b.Values {
			rect := canvas.NewRectangle(Palette[i%len(Palette)])
			rs = append(rs, rect)
			r.objects = append(r.objects, rect)
		}
		r.rects = append(r.rects, rs)
		l := r.text(b.Label, small)
		l.Alignment = fyne.TextAlignCenter
		r.labels = append(r.labels, l)
		r.objects = append(r.objects, l)
	}
	for i, s := range c.series {
		sw := canvas.NewRectangle(Palette[i%len(Palette)])
		sw.CornerRadius = 2
		n := r.text(s, small)
		r.swatch, r.names = append(r.swatch, sw), append(r.names, n)
		r.objects = append(r.objects, sw, n)
	}
	r.empty = nil
	if largest == 0 {
		r.empty = r.text(c.Empty, theme.TextSize())
		r.empty.Color = theme.Color(theme.ColorNamePlaceHolder)
		r.objects = append(r.objects, r.empty)
	}
}

func (r *renderer) Layout(size fyne.Size) {
	pad := theme.Padding()
	small := theme.CaptionTextSize()
	lineH := fyne.MeasureText("0", small, fyne.TextStyle{}).Height
	axisW := float32(0)
	for _, t := range r.ticks {
		axisW = max(axisW, t.MinSize().Width)
	}
	left := axisW + 2*pad
	legendH := lineH + 2*pad
	if len(r.names) == 0 {
		legendH = 0
	}
	bottom := size.Height - legendH - lineH - 2*pad
	top := lineH / 2
	plotH := max(bottom-top, 1)
	plotW := max(size.Width-left-pad, 1)
	for i, v := range r.axis.Ticks() {
		y := bottom - float32(r.axis.Place(v, float64(plotH)))
		r.grid[i].Position1, r.grid[i].Position2 = fyne.NewPos(left, y), fyne.NewPos(left+plotW, y)
		r.ticks[i].Move(fyne.NewPos(0, y-lineH/2))
		r.ticks[i].Resize(fyne.NewSize(axisW+pad, lineH))
	}
	n := len(r.rects)
	if n > 0 {
		slot := plotW / float32(n)
		barW := max(slot*0.7, 1)
		widest := float32(0)
		for _, l := range r.labels {
			widest = max(widest, l.MinSize().Width)
		}
		every := chartscale.Every(float64(slot), float64(widest+2*pad))
		for i, rs := range r.rects {
			x := left + slot*float32(i) + (slot-barW)/2
			y := bottom
			for j, rect := range rs {
				h := float32(r.axis.Place(r.c.bars[i].Values[j], float64(plotH)))
				y -= h
				rect.Move(fyne.NewPos(x, y))
				rect.Resize(fyne.NewSize(barW, h))
			}
			l := r.labels[i]
			// The last bar (now) is always labelled; others every few.
			l.Hidden = (n-1-i)%every != 0
			l.Move(fyne.NewPos(left+slot*float32(i)+slot/2-widest/2-pad, bottom+pad))
			l.Resize(fyne.NewSize(widest+2*pad, lineH))
		}
	}
	x := left
	for i, sw := range r.swatch {
		sw.Move(fyne.NewPos(x, size.Height-legendH+pad+lineH*0.2))
		sw.Resize(fyne.NewSize(lineH*0.6, lineH*0.6))
		x += lineH*0.6 + pad
		r.names[i].Move(fyne.NewPos(x, size.Height-legendH+pad-lineH*0.1))
		x += r.names[i].MinSize().Width + 3*pad
	}
	if r.empty != nil {
		m := r.empty.MinSize()
		r.empty.Move(fyne.NewPos(left+(plotW-m.Width)/2, top+(plotH-m.Height)/2))
	}
}

func (r *renderer) MinSize() fyne.Size { return r.c.MinSize() }

func (r *renderer) Refresh() {
	r.rebuild()
	r.Layout(r.c.Size())
	canvas.Refresh(r.c)
}

func (r *renderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *renderer) Destroy() {}
