package kit

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"easel/internal/catalogue"
)

// PrefTheme is the preference key of the theme chosen in Settings:
// ThemeSystem (or nothing), ThemeLight or ThemeDark.
const PrefTheme = "appearance.theme"

// The themes Settings offers.
const (
	ThemeSystem = ""
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// ApplyTheme draws the app in the theme chosen: the system's light or
// dark, or one of them whatever the system says. Fyne follows the
// system by itself; a fixed variant is Fyne's own theme asked for that
// variant's colours, so every widget keeps Fyne's look.
func ApplyTheme(a fyne.App, choice string) {
	t := theme.DefaultTheme()
	switch choice {
	case ThemeLight:
		t = fixedVariant{t, theme.VariantLight}
	case ThemeDark:
		t = fixedVariant{t, theme.VariantDark}
	}
	if OneWeight() {
		t = oneWeight{t}
	}
	a.Settings().SetTheme(t)
}

// OneWeight reports whether text is drawn in one weight: in a language
// written in Han, kana or Hangul. Fyne draws a glyph its bundled Noto
// Sans lacks from a system font found for the rune, always at regular
// weight, so a bold heading in Chinese came out as bold Latin beside
// regular Chinese; one weight throughout reads as intended.
func OneWeight() bool {
	switch lang, _, _ := strings.Cut(catalogue.Current(), "-"); lang {
	case "zh", "ja", "ko":
		return true
	}
	return false
}

// oneWeight is a theme whose bold text is drawn at the regular weight.
type oneWeight struct{ fyne.Theme }

// Font implements fyne.Theme.
func (t oneWeight) Font(s fyne.TextStyle) fyne.Resource {
	s.Bold = false
	return t.Theme.Font(s)
}

// fixedVariant is a theme whose colours are always one variant's.
type fixedVariant struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

// Color implements fyne.Theme.
func (t fixedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}
