package kit

import (
	"errors"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
)

// luminance is WCAG's relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// A hint is readable on the window and on a field, in the dark and the
// light theme alike: WCAG's 4.5:1 for body text.
func TestHintsAreReadableInBothThemes(t *testing.T) {
	test.NewTempApp(t)
	l := HintLabel("Longest wait for one image")
	// The colour Fyne's label draws each importance in.
	name := theme.ColorNameForeground
	if l.Importance == widget.LowImportance {
		name = theme.ColorNameDisabled
	}
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		fg := theme.DefaultTheme().Color(name, v)
		for _, bgName := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameInputBackground} {
			if c := contrast(fg, theme.DefaultTheme().Color(bgName, v)); c < 4.5 {
				t.Errorf("variant %d on %s: contrast %.1f:1", v, bgName, c)
			}
		}
	}
}

// An error with a hint but no message reads as the hint, with no stray
// dash before it.
func TestErrorTextHasNoStrayDash(t *testing.T) {
	cases := map[string]error{
		"Check the key.":           &api.Error{Hint: "Check the key."},
		"refused — Check the key.": &api.Error{Message: "refused", Hint: "Check the key."},
		"refused":                  &api.Error{Message: "refused"},
		"the connection broke":     errors.New("the connection broke"),
	}
	for want, err := range cases {
		if got := ErrorText(err); got != want {
			t.Errorf("ErrorText = %q, want %q", got, want)
		}
	}
}

// A button beside tall content keeps its own height.
func TestButtonBesideKeepsItsHeight(t *testing.T) {
	test.NewTempApp(t)
	b := widget.NewButton("Test connection", nil)
	row := ButtonBeside(b, HintLabel("a result\nof\nseveral\nlines"))
	row.Resize(fyne.NewSize(600, 200))
	if h, want := b.Size().Height, b.MinSize().Height; h > want+0.5 {
		t.Errorf("the button is %.0f px tall beside tall content, want %.0f", h, want)
	}
}

func TestOrdinals(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 16: "16th", 21: "21st", 22: "22nd"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// A departure the service made reads as a sentence of its own on a card
// or a board's cell: "the service changed…" starts with a capital and
// ends with a full stop.
func TestSentencesStandAlone(t *testing.T) {
	got := Sentences([]string{"the service changed 12 % of the area your mask protects", ""})
	if want := "The service changed 12 % of the area your mask protects."; got[0] != want {
		t.Errorf("Sentences = %q, want %q", got[0], want)
	}
	if got[1] != "" {
		t.Errorf("an empty note became %q", got[1])
	}
}

// In Chinese, bold text is drawn at the regular weight: Fyne finds Han
// glyphs in a system font at regular weight only, and a heading half bold
// Latin, half regular Han read as two weights. In English, bold is bold.
func TestChineseIsDrawnInOneWeight(t *testing.T) {
	a := test.NewTempApp(t)
	defer catalogue.Use("en")
	catalogue.Use("zh-Hans")
	if !OneWeight() {
		t.Fatal("Chinese is not one weight")
	}
	ApplyTheme(a, ThemeDark)
	th := a.Settings().Theme()
	if th.Font(fyne.TextStyle{Bold: true}) != th.Font(fyne.TextStyle{}) {
		t.Error("bold text has its own weight in Chinese")
	}
	if th.Color(theme.ColorNameBackground, theme.VariantLight) != theme.DefaultTheme().Color(theme.ColorNameBackground, theme.VariantDark) {
		t.Error("the one-weight theme lost the chosen variant")
	}
	catalogue.Use("en")
	ApplyTheme(a, ThemeSystem)
	if th := a.Settings().Theme(); th.Font(fyne.TextStyle{Bold: true}) == th.Font(fyne.TextStyle{}) {
		t.Error("English lost its bold")
	}
}
