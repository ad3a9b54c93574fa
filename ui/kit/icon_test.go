package kit

import (
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A steady icon is the themed icon's SVG in the theme's colour, read
// without recolouring it again, and it follows a change of theme.
func TestSteadyIconIsTheThemedIcon(t *testing.T) {
	a := test.NewTempApp(t)
	themed := theme.NavigateNextIcon().(fyne.ThemedResource)
	steady := SteadyIcon(themed)
	if _, still := steady.(fyne.ThemedResource); still {
		t.Fatal("a steady icon is a themed resource: the image would recolour it again")
	}
	if got, want := string(steady.Content()), string(themed.Content()); got != want {
		t.Fatalf("steady content differs from the themed icon's:\n%s\n%s", got, want)
	}
	if !strings.HasSuffix(steady.Name(), ".svg") {
		t.Errorf("name %q: Fyne takes an SVG by its name", steady.Name())
	}
	if n := testing.AllocsPerRun(20, func() { steady.Content() }); n > 4 {
		t.Errorf("reading a steady icon again allocates %.0f times: it is recoloured again", n)
	}

	light := steady.Name()
	a.Settings().SetTheme(redText{a.Settings().Theme()})
	if steady.Name() == light {
		t.Error("the name did not change with the theme's colour: Fyne would draw the old colour from its cache")
	}
	if got, want := string(steady.Content()), string(themed.Content()); got != want {
		t.Error("after a theme change the steady icon keeps the old colour")
	}
}

// A button shows a steady icon as it shows the themed one, enabled and
// disabled.
func TestSteadyIconDrawsAsTheThemedIcon(t *testing.T) {
	a := test.NewTempApp(t)
	shot := func(icon fyne.Resource, disabled bool) []byte {
		b := &widget.Button{Icon: icon, Importance: widget.LowImportance}
		if disabled {
			b.Disable()
		}
		w := a.NewWindow("")
		defer w.Close()
		w.SetPadded(false)
		w.SetContent(b)
		w.Resize(b.MinSize())
		img := w.Canvas().Capture()
		var px []byte
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				r, g, bl, al := img.At(x, y).RGBA()
				px = append(px, byte(r>>8), byte(g>>8), byte(bl>>8), byte(al>>8))
			}
		}
		return px
	}
	themed := theme.DeleteIcon().(fyne.ThemedResource)
	if string(shot(themed, false)) == string(shot(theme.NavigateNextIcon(), false)) {
		t.Fatal("two icons draw alike: the capture does not show icons")
	}
	for _, disabled := range []bool{false, true} {
		if string(shot(SteadyIcon(themed), disabled)) != string(shot(themed, disabled)) {
			t.Errorf("disabled=%v: the button with a steady icon draws differently", disabled)
		}
	}
}

// redText is a theme whose text, and so its icons, is red.
type redText struct{ fyne.Theme }

func (r redText) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameForeground {
		return color.NRGBA{R: 0xff, A: 0xff}
	}
	return r.Theme.Color(n, v)
}
