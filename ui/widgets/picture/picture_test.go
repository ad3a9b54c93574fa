package picture

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func filled(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func TestPictureShowsTheCheckerboardOnlyUnderTransparency(t *testing.T) {
	test.NewTempApp(t)
	p := New(fyne.NewSize(100, 100))
	if p.checker.Visible() {
		t.Error("checkerboard shown with no image")
	}
	opaque := filled(40, 40, color.NRGBA{R: 200, A: 0xff})
	p.SetImage(opaque)
	if p.checker.Visible() {
		t.Error("checkerboard shown under an opaque image")
	}
	holed := filled(40, 40, color.NRGBA{R: 200, A: 0xff})
	holed.Pix[4*(20*40+20)+3] = 0x80 // one translucent pixel
	p.SetImage(holed)
	if !p.checker.Visible() {
		t.Error("no checkerboard under an image with a translucent pixel")
	}
	p.SetImage(image.NewYCbCr(image.Rect(0, 0, 8, 8), image.YCbCrSubsampleRatio420))
	if p.checker.Visible() {
		t.Error("checkerboard shown under a JPEG's YCbCr image")
	}
	p.SetImage(nil)
	if p.checker.Visible() {
		t.Error("checkerboard left after the image was cleared")
	}
}

func TestPictureCheckerboardCoversTheFittedImageOnly(t *testing.T) {
	test.NewTempApp(t)
	for _, c := range []struct {
		name          string
		img, area     fyne.Size
		wantAt        fyne.Position
		wantCheckered fyne.Size
	}{
		{"square in a wide area", fyne.NewSize(100, 100), fyne.NewSize(200, 100), fyne.NewPos(50, 0), fyne.NewSize(100, 100)},
		{"wide in a square area", fyne.NewSize(400, 100), fyne.NewSize(200, 200), fyne.NewPos(0, 75), fyne.NewSize(200, 50)},
		{"tall, scaled up", fyne.NewSize(10, 20), fyne.NewSize(100, 100), fyne.NewPos(25, 0), fyne.NewSize(50, 100)},
	} {
		p := New(fyne.NewSize(10, 10))
		p.SetImage(image.NewNRGBA(image.Rect(0, 0, int(c.img.Width), int(c.img.Height))))
		p.Resize(c.area)
		test.TempWidgetRenderer(t, p).Layout(c.area)
		if got := p.checker.Position(); got != c.wantAt {
			t.Errorf("%s: checkerboard at %v, want %v", c.name, got, c.wantAt)
		}
		if got := p.checker.Size(); got != c.wantCheckered {
			t.Errorf("%s: checkerboard %v, want %v", c.name, got, c.wantCheckered)
		}
	}
}

func TestPictureDrawsACheckerboardThroughATransparentImage(t *testing.T) {
	test.NewTempApp(t)
	p := New(fyne.NewSize(64, 64))
	p.SetImage(image.NewNRGBA(image.Rect(0, 0, 64, 64))) // every pixel transparent
	w := test.NewTempWindow(t, p)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(64, 64))
	shot := w.Canvas().Capture()
	a, b := shot.At(2, 2), shot.At(2+checkerSide, 2)
	if a == b {
		t.Fatalf("neighbouring squares are both %v: no checkerboard drawn", a)
	}
	if diag := shot.At(2+checkerSide, 2+checkerSide); diag != a {
		t.Errorf("diagonal squares differ: %v and %v", a, diag)
	}
}

func TestDrawCheckerAlternatesSquares(t *testing.T) {
	test.NewTempApp(t)
	img := drawChecker(4*checkerSide, 2*checkerSide)
	if got := img.Bounds().Size(); got != image.Pt(4*checkerSide, 2*checkerSide) {
		t.Fatalf("size %v", got)
	}
	first, second := img.At(0, 0), img.At(checkerSide, 0)
	if first == second {
		t.Fatalf("squares are the same colour %v", first)
	}
	if img.At(checkerSide-1, checkerSide-1) != first || img.At(checkerSide, checkerSide) != first || img.At(0, checkerSide) != second {
		t.Error("squares do not alternate every", checkerSide, "pixels")
	}
	if _, _, _, a := first.RGBA(); a != 0xffff {
		t.Errorf("checkerboard is not opaque: alpha %d", a)
	}
}
