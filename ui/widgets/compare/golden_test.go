package compare

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The slider as drawn, against a master image: before on the left of
// the split, after on the right, the divider where Split puts it.
func TestGoldenSliderSplitsBeforeAndAfter(t *testing.T) {
	test.NewTempApp(t)
	fill := func(c color.NRGBA) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, 64, 48))
		for i := 0; i < len(img.Pix); i += 4 {
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
		return img
	}
	v := New(fill(color.NRGBA{0xd9, 0x48, 0x2b, 0xff}), fill(color.NRGBA{0x2a, 0x9d, 0x8f, 0xff}), fyne.NewSize(160, 120))
	v.Split = 0.3
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(200, 150))
	v.Refresh()
	test.AssertRendersToImage(t, "slider.png", w.Canvas())
}
