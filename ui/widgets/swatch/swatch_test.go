package swatch

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// variant is the default theme fixed to one variant, as Settings ▸
// Preferences ▸ Theme sets it.
type variant struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t variant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

// A swatch made in the dark theme takes the light theme's colours when
// the theme changes, as Fyne refreshes the window's objects.
func TestSwatchFollowsTheTheme(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(variant{theme.DefaultTheme(), theme.VariantDark})
	s := New(theme.ColorNameInputBackground)
	s.Stroke, s.StrokeWidth = theme.ColorNamePrimary, 2
	w := test.NewTempWindow(t, s)
	w.Resize(fyne.NewSize(50, 50))
	rect := test.WidgetRenderer(s).Objects()[0].(*canvas.Rectangle)
	dark := rect.FillColor
	if dark != theme.DefaultTheme().Color(theme.ColorNameInputBackground, theme.VariantDark) {
		t.Fatalf("fill %v, want the dark theme's field background", dark)
	}
	a.Settings().SetTheme(variant{theme.DefaultTheme(), theme.VariantLight})
	s.Refresh() // what Fyne does to every object when the theme changes
	if want := theme.DefaultTheme().Color(theme.ColorNameInputBackground, theme.VariantLight); rect.FillColor != want {
		t.Errorf("after the change to light: fill %v, want %v", rect.FillColor, want)
	}
	if rect.StrokeColor == color.Transparent || rect.StrokeWidth != 2 {
		t.Errorf("stroke %v width %v, want the primary colour at 2", rect.StrokeColor, rect.StrokeWidth)
	}
}

// FillAlpha keeps the colour and sets its opacity; a frame fills nothing.
func TestAlphaAndFrame(t *testing.T) {
	test.NewTempApp(t)
	s := New(theme.ColorNamePrimary)
	s.FillAlpha = 0x30
	fill, _ := s.Colors()
	if _, _, _, a := fill.RGBA(); a>>8 != 0x30 {
		t.Errorf("alpha %#x, want 0x30", a>>8)
	}
	f := Frame(theme.ColorNamePrimary, 1)
	fill, stroke := f.Colors()
	if fill != color.Transparent || stroke == color.Transparent {
		t.Errorf("frame: fill %v stroke %v", fill, stroke)
	}
	f.SetMinSize(fyne.NewSize(3, 0))
	if f.MinSize() != fyne.NewSize(3, 0) {
		t.Errorf("min size %v", f.MinSize())
	}
}
