package imageio

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/disintegration/imaging"

	"easel/internal/catalogue"
	"easel/internal/colour"
)

// DecodeBounded decodes an image after reading its header and refusing
// one of more than limit pixels, so a small file cannot ask for gigabytes.
// The header is read from the stream itself, however far into it the
// size comes (a JPEG's may follow hundreds of kilobytes of metadata), and
// what it read is decoded again from memory with the rest.
func DecodeBounded(r io.Reader, limit int) (image.Image, error) {
	var head bytes.Buffer
	cfg, _, err := image.DecodeConfig(io.TeeReader(r, &head))
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("not a readable image: %w"), err)
	}
	if err := CheckPixelsWithin(cfg.Width, cfg.Height, limit); err != nil {
		return nil, err
	}
	if cfg.Width*cfg.Height >= countedPixels {
		decodes.Add(1)
	}
	img, _, err := image.Decode(io.MultiReader(&head, r))
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("not a readable image: %w"), err)
	}
	return img, nil
}

// DecodeFileFit decodes an image file, within MaxPixels, and scales it to
// fit side pixels when it is larger: what a pane of the window shows,
// without holding a 4096-pixel original in memory (and in the GPU) for a
// view a fifth of its size. Its colours are sRGB (DecodeFile), converted
// after the scaling, on the few pixels left.
func DecodeFileFit(path string, side int) (image.Image, error) {
	return DecodeFileFitIn(path, side, nil, false)
}

// DecodeFileFitIn is DecodeFileFit for a caller that has read the file's
// head already (known): its colour space is space, and the head is not
// read again.
func DecodeFileFitIn(path string, side int, space *colour.Space, known bool) (image.Image, error) {
	img, err := decodeFile(path)
	if err != nil {
		return nil, err
	}
	if !known {
		space = FileSpace(path)
	}
	return InSRGB(Fit(img, side), space), nil
}

// DecodeFile decodes an image file whole, within MaxPixels, in sRGB: a
// file that declares another colour space (a Display P3 photograph) is
// converted, so it is drawn, cut out or sent as it looks.
func DecodeFile(path string) (image.Image, error) {
	img, err := decodeFile(path)
	if err != nil {
		return nil, err
	}
	return InSRGB(img, FileSpace(path)), nil
}

// decodeFile decodes an image file whole, within MaxPixels, its numbers
// as the file holds them.
func decodeFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeBounded(f, MaxPixels)
}

// ReadFile reads a file of Easel's (a stored input, a gallery image),
// bounded by MaxReadBytes as any input is.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxReadBytes))
}

// Fit is img scaled down to fit side pixels, or img itself when it fits.
// A picture many times larger is first shrunk by averaging blocks of
// whole pixels (shrink) to between two and four times the size, as
// libvips shrinks before it reduces: the linear filter's taps grow with
// the scale, and taking a 3840×2160 answer to a 256-pixel thumbnail
// directly was a tenth of a second of CPU, three times for a kept edit.
func Fit(img image.Image, side int) image.Image {
	b := img.Bounds()
	if b.Dx() <= side && b.Dy() <= side {
		return img
	}
	k := max(b.Dx(), b.Dy()) / side / 2
	if k < 2 {
		return imaging.Fit(img, side, side, imaging.Linear)
	}
	// The size is the whole picture's fit (as imaging.Fit reckons it):
	// the shrunk one's sides are rounded up to whole blocks.
	aspect := float64(b.Dx()) / float64(b.Dy())
	w, h := side, int(float64(side)/aspect)
	if aspect <= 1 {
		w, h = int(float64(side)*aspect), side
	}
	if small, ok := shrink(img, k); ok {
		img = small
	}
	return imaging.Resize(img, max(1, w), max(1, h), imaging.Linear)
}

// shrink is img with each k×k block of pixels averaged into one (the
// blocks at the right and bottom edges may be narrower), for what PNG
// decodes to: RGBA, whose premultiplied colours average as they are,
// and opaque NRGBA. Other kinds are not shrunk (false).
func shrink(img image.Image, k int) (image.Image, bool) {
	var pix []byte
	var stride int
	b := img.Bounds()
	size := image.Rect(0, 0, (b.Dx()+k-1)/k, (b.Dy()+k-1)/k)
	var out image.Image
	var outPix []byte
	switch m := img.(type) {
	case *image.RGBA:
		pix, stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
		o := image.NewRGBA(size)
		out, outPix = o, o.Pix
	case *image.NRGBA:
		if !m.Opaque() {
			return nil, false // its colours would need weighing by alpha
		}
		pix, stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
		o := image.NewNRGBA(size)
		out, outPix = o, o.Pix
	default:
		return nil, false
	}
	w, h := b.Dx(), b.Dy()
	// Each band of k rows is summed down its columns, then across its
	// blocks: two plain loops over the bytes. The bands are shared out
	// among the cores.
	workers := min(runtime.GOMAXPROCS(0), size.Dy())
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			cols := make([]uint32, 4*w)
			for oy := wk; oy < size.Dy(); oy += workers {
				clear(cols)
				y0, y1 := oy*k, min(h, oy*k+k)
				for y := y0; y < y1; y++ {
					row := pix[y*stride : y*stride+4*w]
					sum := cols[:len(row)]
					for i, v := range row {
						sum[i] += uint32(v)
					}
				}
				dst := outPix[oy*4*size.Dx():]
				for ox := range size.Dx() {
					x0, x1 := ox*k, min(w, ox*k+k)
					var r, g, bl, a uint32
					for i := 4 * x0; i < 4*x1; i += 4 {
						r, g, bl, a = r+cols[i], g+cols[i+1], bl+cols[i+2], a+cols[i+3]
					}
					n := uint32((y1 - y0) * (x1 - x0))
					dst[4*ox], dst[4*ox+1], dst[4*ox+2], dst[4*ox+3] = uint8((r+n/2)/n), uint8((g+n/2)/n), uint8((bl+n/2)/n), uint8((a+n/2)/n)
				}
			}
		})
	}
	wg.Wait()
	return out, true
}

// IsOpaque reports whether every pixel of img is opaque. Images that can
// tell cheaply (a JPEG's YCbCr, a scan of an NRGBA's alpha bytes that
// stops at the first transparent pixel) do; others are looked at pixel
// by pixel.
func IsOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return false
			}
		}
	}
	return true
}
