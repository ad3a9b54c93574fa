package imageio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/draw"
	"io"
	"os"
	"sync"

	"github.com/disintegration/imaging"

	"easel/internal/catalogue"
	"easel/internal/colour"
	"easel/internal/cores"
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
//
// A large PNG is fitted from its rows as they inflate (fitPNGFile),
// never whole in memory.
func DecodeFileFitIn(path string, side int, space *colour.Space, known bool) (image.Image, error) {
	img, streamed := fitPNGFile(path, side)
	if !streamed {
		whole, err := decodeFile(path)
		if err != nil {
			return nil, err
		}
		img = Fit(whole, side)
	}
	if !known {
		space = FileSpace(path)
	}
	return InSRGB(img, space), nil
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
	k := shrinkFactor(b.Dx(), b.Dy(), side)
	if k < 2 {
		return imaging.Fit(img, side, side, imaging.Linear)
	}
	return fitShrunk(shrink(img, k), b.Dx(), b.Dy(), side)
}

// shrinkFactor is the block side Fit shrinks a w×h picture by before
// scaling it to side: to between two and four times side (under 2: not
// shrunk).
func shrinkFactor(w, h, side int) int { return max(w, h) / side / 2 }

// fitShrunk is a w×h picture, shrunk to small, scaled to fit side. The
// size is the whole picture's fit (as imaging.Fit reckons it): small's
// sides are rounded up to whole blocks.
func fitShrunk(small image.Image, w, h, side int) image.Image {
	aspect := float64(w) / float64(h)
	fw, fh := side, int(float64(side)/aspect)
	if aspect <= 1 {
		fw, fh = int(float64(side)*aspect), side
	}
	return imaging.Resize(small, max(1, fw), max(1, fh), imaging.Linear)
}

// shrink is img with each k×k block of pixels averaged into one (the
// blocks at the right and bottom edges may be narrower), colours
// weighed by alpha. PNG's kinds are summed where they lie: RGBA (an RGB
// file), premultiplied already; opaque NRGBA; translucent NRGBA, each
// colour times its alpha. Any other kind (a JPEG's YCbCr, 16-bit or
// paletted colour) is drawn band by band into premultiplied RGBA first.
// Translucent and drawn blocks are kept at 16 bits (RGBA64): rounded to
// 8 bits premultiplied, a nearly clear block's colour was six levels off
// once its alpha was divided out. Only RGBA and opaque NRGBA were once
// shrunk: the rest were scaled whole by the linear filter, and a 3600²
// translucent reference's thumbnail held both cores for a fifth of a
// second while the window's callbacks waited behind it (session 25).
func shrink(img image.Image, k int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	size := image.Rect(0, 0, (w+k-1)/k, (h+k-1)/k)
	sh := shrinker{k: k, w: w, h: h, size: size}
	switch m := img.(type) {
	case *image.RGBA:
		sh.pix, sh.stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
		o := image.NewRGBA(size)
		sh.out, sh.outPix = o, o.Pix
	case *image.NRGBA:
		sh.pix, sh.stride = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride
		if m.Opaque() {
			o := image.NewNRGBA(size)
			sh.out, sh.outPix = o, o.Pix
		} else {
			sh.weigh = true
		}
	default:
		sh.draw = func(band *image.RGBA, y0 int) {
			draw.Draw(band, band.Rect, img, image.Pt(b.Min.X, b.Min.Y+y0), draw.Src)
		}
	}
	if sh.out == nil {
		o := image.NewRGBA64(size)
		sh.out, sh.outPix, sh.wide = o, o.Pix, true
	}
	// The bands are shared out among the cores image work may use.
	workers := min(cores.Workers(), size.Dy())
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			cols := make([]uint32, 4*w)
			var scratch []byte
			for oy := wk; oy < size.Dy(); oy += workers {
				sh.band(oy, cols, &scratch)
			}
		})
	}
	wg.Wait()
	return sh.out
}

// shrinker is one shrink's picture and output.
type shrinker struct {
	k, w, h int
	size    image.Rectangle
	// pix and stride are the picture's 8-bit RGBA or NRGBA rows, from
	// its top left; draw, set instead, draws rows of another kind into
	// premultiplied RGBA.
	pix    []byte
	stride int
	draw   func(band *image.RGBA, y0 int)
	// weigh multiplies each colour by its alpha (NRGBA that is not
	// opaque): its column sums are 255 times premultiplied colour.
	weigh bool
	out   image.Image
	// outPix is out's pixels; wide when they are 16 bits a channel.
	outPix []byte
	wide   bool
}

// band is output row oy: the k rows above it summed down their columns
// into cols, then across each block.
func (sh *shrinker) band(oy int, cols []uint32, scratch *[]byte) {
	clear(cols)
	y0, y1 := oy*sh.k, min(sh.h, oy*sh.k+sh.k)
	pix, stride := sh.pix[y0*sh.stride:], sh.stride
	if sh.draw != nil {
		if len(*scratch) < 4*sh.w*sh.k {
			*scratch = make([]byte, 4*sh.w*sh.k)
		}
		band := &image.RGBA{Pix: *scratch, Stride: 4 * sh.w, Rect: image.Rect(0, 0, sh.w, y1-y0)}
		sh.draw(band, y0)
		pix, stride = band.Pix, band.Stride
	}
	for y := range y1 - y0 {
		sh.sum(pix[y*stride:y*stride+4*sh.w], cols)
	}
	sh.put(oy, y1-y0, cols)
}

// sum adds one row of 8-bit pixels (4 bytes each) into cols, each
// colour times its alpha when the shrinker weighs.
func (sh *shrinker) sum(row []byte, cols []uint32) {
	sum := cols[:len(row)]
	if sh.weigh {
		for i := 0; i < len(row); i += 4 {
			a := uint32(row[i+3])
			sum[i] += uint32(row[i]) * a
			sum[i+1] += uint32(row[i+1]) * a
			sum[i+2] += uint32(row[i+2]) * a
			sum[i+3] += a
		}
		return
	}
	for i, v := range row {
		sum[i] += uint32(v)
	}
}

// put writes output row oy: each block's average of cols, the sums of
// rows rows.
func (sh *shrinker) put(oy, rows int, cols []uint32) {
	for ox := range sh.size.Dx() {
		x0, x1 := ox*sh.k, min(sh.w, ox*sh.k+sh.k)
		var sums [4]uint64
		for i := 4 * x0; i < 4*x1; i += 4 {
			for c := range sums {
				sums[c] += uint64(cols[i+c])
			}
		}
		n := uint64(rows) * uint64(x1-x0)
		at := oy*sh.size.Dx() + ox
		if !sh.wide {
			for c, v := range sums {
				sh.outPix[4*at+c] = uint8((v + n/2) / n)
			}
			continue
		}
		for c, v := range sums {
			// To 16 bits: 8-bit sums times 257; weighed colour sums are
			// 255 times larger again.
			d := n
			if sh.weigh && c < 3 {
				d *= 255
			}
			binary.BigEndian.PutUint16(sh.outPix[8*at+2*c:], uint16((v*257+d/2)/d))
		}
	}
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
