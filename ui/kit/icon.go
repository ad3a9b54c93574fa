package kit

import (
	"fmt"
	"image/color"
	"sync"

	"fyne.io/fyne/v2"
)

// SteadyIcon is icon, a theme icon, for widgets made many at a time.
// Fyne's themed resource recolours its SVG each time it is read, and a
// button's icon is read at every refresh of its image, recoloured once
// more there and parsed for its size: three XML passes a refresh, two
// refreshes a new button. Adding a reference to Edit's strip makes a
// tile of three buttons, and that was half of what the add allocated on
// the UI goroutine (docs/decisions.md). A steady icon is
// recoloured once per colour, and the result shared by every widget
// showing it; it is not a themed resource, so the image takes it as it
// is. Its name carries the colour, so Fyne's cache of drawn icons, kept
// by name, follows a theme change. An icon that is not themed is
// returned as it is.
func SteadyIcon(icon fyne.Resource) fyne.Resource {
	if themed, ok := icon.(fyne.ThemedResource); ok {
		return steadyIcon{themed}
	}
	return icon
}

type steadyIcon struct{ themed fyne.ThemedResource }

// steadyKey is one icon in one colour.
type steadyKey struct {
	name   string
	colour color.NRGBA
}

// steadyContent holds each icon's SVG in each colour it was drawn in: a
// handful of icons in a light and a dark theme's colour.
var steadyContent sync.Map // steadyKey → []byte

func (s steadyIcon) key() steadyKey {
	settings := fyne.CurrentApp().Settings()
	c := settings.Theme().Color(s.themed.ThemeColorName(), settings.ThemeVariant())
	return steadyKey{s.themed.Name(), color.NRGBAModel.Convert(c).(color.NRGBA)}
}

// Name ends as the icon's does (".svg"), which is how Fyne knows it for
// an SVG without reading it.
func (s steadyIcon) Name() string {
	k := s.key()
	return fmt.Sprintf("%02x%02x%02x%02x-%s", k.colour.R, k.colour.G, k.colour.B, k.colour.A, k.name)
}

func (s steadyIcon) Content() []byte {
	k := s.key()
	if b, ok := steadyContent.Load(k); ok {
		return b.([]byte)
	}
	b := s.themed.Content()
	steadyContent.Store(k, b)
	return b
}
