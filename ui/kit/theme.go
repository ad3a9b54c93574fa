package kit

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
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
	switch choice {
	case ThemeLight:
		a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantLight})
	case ThemeDark:
		a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantDark})
	default:
		a.Settings().SetTheme(theme.DefaultTheme())
	}
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
