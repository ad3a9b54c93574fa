package labelfont

import (
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
)

func TestFitCutsToTheWidth(t *testing.T) {
	f := basicfont.Face7x13
	if got := Fit(f, "short", 100); got != "short" {
		t.Errorf("Fit kept %q", got)
	}
	got := Fit(f, "a very long label indeed", 70)
	if font.MeasureString(f, got).Ceil() > 70 || got[len(got)-1] != '~' {
		t.Errorf("Fit = %q (%d px)", got, font.MeasureString(f, got).Ceil())
	}
}
