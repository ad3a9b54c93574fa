package maskpaint

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"easel/internal/mask"
)

// The painter as drawn, against a master image: a picture fitted to the
// widget and letterboxed, a painted band tinted over it at the set
// opacity, and nothing tinted outside the band.
func TestGoldenPaintedBandIsTinted(t *testing.T) {
	test.NewTempApp(t)
	img := image.NewNRGBA(image.Rect(0, 0, 120, 80))
	for y := range 80 {
		for x := range 120 {
			img.SetNRGBA(x, y, color.NRGBA{uint8(2 * x), uint8(3 * y), 160, 255})
		}
	}
	p := New(fyne.NewSize(100, 100))
	p.SetImage(img)
	w := test.NewTempWindow(t, p)
	w.Resize(fyne.NewSize(240, 200))
	p.Do(func(m *mask.Mask) { m.Rect(image.Rect(20, 30, 100, 50), false) })
	p.SetOpacity(0.5)
	test.AssertRendersToImage(t, "painted-band.png", w.Canvas())
}
