// Package swatch is a rectangle coloured by the theme's colour names that
// follows a change of theme. Fyne refreshes every object in the window
// when the theme changes (Settings ▸ Preferences ▸ Theme), but a
// canvas.Rectangle keeps the colour it was made with: a field's
// background or a frame made while the theme was dark stayed dark in the
// light theme until its view was rebuilt. A Swatch looks its colours up
// again each time it is refreshed, through the theme that applies to it
// (an override included). It knows nothing of the app.
package swatch

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Swatch is a filled and/or stroked rectangle in theme colours.
type Swatch struct {
	widget.BaseWidget
	// Fill and Stroke name the theme's colours ("" for none).
	Fill, Stroke fyne.ThemeColorName
	// FillAlpha, when set, replaces the fill colour's own opacity (a
	// shade of the primary colour behind a table's header).
	FillAlpha uint8
	// StrokeWidth and CornerRadius are as canvas.Rectangle's.
	StrokeWidth, CornerRadius float32
	min                       fyne.Size
}

// New is a swatch filled with the theme's colour fill.
func New(fill fyne.ThemeColorName) *Swatch {
	s := &Swatch{Fill: fill}
	s.ExtendBaseWidget(s)
	return s
}

// Frame is a swatch that only strokes its edge, width wide, in stroke.
func Frame(stroke fyne.ThemeColorName, width float32) *Swatch {
	s := &Swatch{Stroke: stroke, StrokeWidth: width}
	s.ExtendBaseWidget(s)
	return s
}

// SetMinSize sets the smallest size the swatch asks for (a quote's bar).
func (s *Swatch) SetMinSize(size fyne.Size) {
	s.min = size
	s.Refresh()
}

// MinSize implements fyne.CanvasObject.
func (s *Swatch) MinSize() fyne.Size { return s.min }

// Colors are the fill and stroke as the theme gives them now.
func (s *Swatch) Colors() (fill, stroke color.Color) {
	fill, stroke = color.Transparent, color.Transparent
	if s.Fill != "" {
		fill = theme.ColorForWidget(s.Fill, s)
		if s.FillAlpha != 0 {
			r, g, b, _ := fill.RGBA()
			fill = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: s.FillAlpha}
		}
	}
	if s.Stroke != "" {
		stroke = theme.ColorForWidget(s.Stroke, s)
	}
	return fill, stroke
}

// CreateRenderer implements fyne.Widget.
func (s *Swatch) CreateRenderer() fyne.WidgetRenderer {
	r := &renderer{s: s, rect: canvas.NewRectangle(color.Transparent)}
	r.Refresh()
	return r
}

type renderer struct {
	s    *Swatch
	rect *canvas.Rectangle
}

func (r *renderer) Layout(size fyne.Size) { r.rect.Resize(size) }

func (r *renderer) MinSize() fyne.Size { return r.s.min }

func (r *renderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.rect} }

func (r *renderer) Destroy() {}

// Refresh looks the colours up again: this is where a theme change
// reaches the swatch.
func (r *renderer) Refresh() {
	r.rect.FillColor, r.rect.StrokeColor = r.s.Colors()
	r.rect.StrokeWidth, r.rect.CornerRadius = r.s.StrokeWidth, r.s.CornerRadius
	r.rect.Refresh()
}
