// Package picture is a widget that shows an image fitted into its area,
// over a checkerboard where the image is transparent, as image editors
// do. Job cards, gallery cells and the details pane use it; it knows
// nothing of the app.
package picture

import (
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/imageio"
)

// checkerSide is the side of one checkerboard square, in screen pixels.
const checkerSide = 8

// Picture shows an image fitted into its area, over a checkerboard where
// the image has transparency, as image editors do: an image made with a
// transparent background would otherwise look like one with a dark
// background. The checkerboard covers the fitted image only, not the
// margins beside it, and its squares keep their size on screen whatever
// the image's scale.
type Picture struct {
	widget.BaseWidget
	img     *canvas.Image
	checker *canvas.Raster
	minSize fyne.Size
}

// New makes an empty Picture that asks for at least minSize.
func New(minSize fyne.Size) *Picture {
	p := &Picture{minSize: minSize, img: &canvas.Image{FillMode: canvas.ImageFillContain}}
	p.checker = canvas.NewRaster(drawChecker)
	p.checker.Hide()
	p.ExtendBaseWidget(p)
	return p
}

// Image is the image shown, nil for none.
func (p *Picture) Image() image.Image { return p.img.Image }

// SetImage shows img (nil shows nothing), looking at its pixels to learn
// whether it is opaque.
func (p *Picture) SetImage(img image.Image) {
	p.SetImageOpaque(img, img == nil || imageio.IsOpaque(img))
}

// SetImageOpaque shows img, which the caller knows to be opaque or not.
// It refreshes the two objects it changed, not the whole widget: a grid
// cell is bound again at every scroll.
func (p *Picture) SetImageOpaque(img image.Image, opaque bool) {
	p.img.Image = img
	p.img.Refresh()
	p.checker.Hidden = img == nil || opaque
	if p.placeChecker(p.Size()) {
		canvas.Refresh(p.checker)
	}
}

// placeChecker puts the checkerboard under the image as fitted into an
// area of the given size; it reports whether there is one to draw.
func (p *Picture) placeChecker(size fyne.Size) bool {
	if p.checker.Hidden {
		return false
	}
	at, fit := fitted(p.img.Image, size)
	p.checker.Move(at)
	p.checker.Resize(fit)
	return true
}

// CreateRenderer is Fyne's hook for drawing the widget.
func (p *Picture) CreateRenderer() fyne.WidgetRenderer {
	return &renderer{p: p}
}

type renderer struct{ p *Picture }

func (r *renderer) Layout(size fyne.Size) {
	r.p.img.Move(fyne.NewPos(0, 0))
	r.p.img.Resize(size)
	r.p.placeChecker(size)
}

func (r *renderer) MinSize() fyne.Size { return r.p.minSize }

func (r *renderer) Refresh() {
	r.Layout(r.p.Size())
	if r.p.checker.Visible() {
		canvas.Refresh(r.p.checker) // the theme may have changed
	}
	r.p.img.Refresh()
}

func (r *renderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.p.checker, r.p.img}
}

func (r *renderer) Destroy() {}

// fitted is where an image drawn with ImageFillContain lands in an area
// of the given size: as large as fits, centred.
func fitted(img image.Image, area fyne.Size) (fyne.Position, fyne.Size) {
	if img == nil || img.Bounds().Empty() || area.IsZero() {
		return fyne.NewPos(0, 0), fyne.NewSize(0, 0)
	}
	w, h := float32(img.Bounds().Dx()), float32(img.Bounds().Dy())
	scale := min(area.Width/w, area.Height/h)
	fit := fyne.NewSize(w*scale, h*scale)
	return fyne.NewPos((area.Width-fit.Width)/2, (area.Height-fit.Height)/2), fit
}

// drawChecker draws the checkerboard at w×h pixels in two shades of the
// theme's field background, so it reads as "nothing here" in a dark or
// a light theme alike.
func drawChecker(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	dark := color.NRGBAModel.Convert(theme.Color(theme.ColorNameInputBackground)).(color.NRGBA)
	dark.A = 0xff
	light := lighten(dark, 0x22)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := 0; x < w; x++ {
			c := dark
			if (x/checkerSide+y/checkerSide)%2 == 0 {
				c = light
			}
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
		}
	}
	return img
}

// lighten moves c towards white (or, for a light colour, towards black)
// by d in each channel.
func lighten(c color.NRGBA, d uint8) color.NRGBA {
	shift := func(v uint8) uint8 {
		if c.R > 0x80 {
			return uint8(max(int(v)-int(d), 0))
		}
		return uint8(min(int(v)+int(d), 0xff))
	}
	return color.NRGBA{R: shift(c.R), G: shift(c.G), B: shift(c.B), A: c.A}
}
