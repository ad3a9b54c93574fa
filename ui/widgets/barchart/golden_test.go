package barchart

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The chart as drawn, against a master image: stacked bars per day in
// the palette's order, their axis labels and the legend.
func TestGoldenStackedBars(t *testing.T) {
	test.NewTempApp(t)
	c := New(dollars)
	w := test.NewTempWindow(t, c)
	w.Resize(fyne.NewSize(360, 220))
	c.Set([]string{"gpt-image-1", "dall-e-3"}, []Bar{{"Mon", []float64{0.4, 0.1}}, {"Tue", []float64{1.2, 0}}, {"Wed", []float64{0.2, 0.6}}})
	test.AssertRendersToImage(t, "stacked.png", w.Canvas())
}
