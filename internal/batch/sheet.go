package batch

import (
	"image"
	"image/color"
	"image/draw"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"easel/internal/labelfont"
)

// SheetCell is one picture of a contact sheet and the words under it;
// a nil Image is a cell that failed or was not run, drawn empty.
type SheetCell struct {
	Image image.Image
	Label string
}

// Sheet lays cells out in a grid, each picture fitted into side×side
// pixels with its label under it, so a whole batch is judged, shared
// and kept as one image. Labels are drawn in Go's small bitmap face, or
// in the system font that has their script (a Chinese prompt); a label
// too wide for its cell is cut, and the files keep the full values.
func Sheet(cells []SheetCell, side int) *image.NRGBA {
	side = max(side, 32)
	cols := 1
	for cols*cols < len(cells) {
		cols++
	}
	rows := max(1, (len(cells)+cols-1)/cols)
	const pad, text = 8, 18
	cw, ch := side+pad, side+text+pad
	sheet := image.NewNRGBA(image.Rect(0, 0, cols*cw+pad, rows*ch+pad))
	draw.Draw(sheet, sheet.Rect, image.NewUniform(color.NRGBA{245, 245, 245, 255}), image.Point{}, draw.Src)
	for i, c := range cells {
		x0, y0 := pad+(i%cols)*cw, pad+(i/cols)*ch
		frame := image.Rect(x0, y0, x0+side, y0+side)
		draw.Draw(sheet, frame, image.NewUniform(color.NRGBA{220, 220, 220, 255}), image.Point{}, draw.Src)
		if c.Image != nil {
			b := c.Image.Bounds()
			f := min(float64(side)/float64(b.Dx()), float64(side)/float64(b.Dy()))
			w, h := max(1, int(float64(b.Dx())*f)), max(1, int(float64(b.Dy())*f))
			at := image.Rect(x0+(side-w)/2, y0+(side-h)/2, x0+(side-w)/2+w, y0+(side-h)/2+h)
			xdraw.CatmullRom.Scale(sheet, at, c.Image, b, draw.Over, nil)
		}
		var face font.Face = basicfont.Face7x13
		if f, ok := labelfont.Face(c.Label, 12); ok {
			face = f
		}
		d := font.Drawer{Dst: sheet, Src: image.NewUniform(color.NRGBA{30, 30, 30, 255}), Face: face,
			Dot: fixed.P(x0, y0+side+13)}
		d.DrawString(labelfont.Fit(face, c.Label, side))
	}
	return sheet
}
