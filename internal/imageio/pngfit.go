package imageio

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"image"
	"io"
	"os"
)

// fitPNGFile is the PNG file at path fitted to side, as Fit would fit its
// decoded picture, made from its rows as they inflate: the whole picture
// is never in memory. A 50 MB reference's thumbnail was a 52 MB picture
// decoded and dropped, one per reference, and sixteen dropped at once
// kept the collector running with no room to spare, which made the
// window's callbacks pay for its marking (12 ms of assist in a 20 ms add,
// session 25). ok is false where the decoder is left to do it: a picture
// small enough that Fit would not shrink it, an interlaced one, fewer
// than 8 bits a channel, a colour key (tRNS on grey or RGB), or a file
// this reader finds wrong (the decoder then says how).
func fitPNGFile(path string, side int) (img image.Image, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	img, err = fitPNG(bufio.NewReaderSize(f, 64<<10), side)
	return img, err == nil && img != nil
}

// errNotStreamed is a PNG fitPNG leaves to the decoder.
var errNotStreamed = errors.New("not streamed")

// pngLayout is what a PNG's header and palette say of its rows.
type pngLayout struct {
	w, h, depth, colour int
	// channels of depth bits a pixel, and bytes a pixel (at least one,
	// the filters' step).
	channels, bpp int
	// palette is a paletted picture's colours, alpha included (NRGBA).
	palette [][4]byte
	alpha   bool
}

func fitPNG(r io.Reader, side int) (image.Image, error) {
	var sig [8]byte
	if _, err := io.ReadFull(r, sig[:]); err != nil || string(sig[:]) != pngSignature {
		return nil, errNotStreamed
	}
	c := &pngChunks{r: r}
	var l pngLayout
	for {
		if err := c.next(); err != nil {
			return nil, err
		}
		var err error
		switch c.kind {
		case "IHDR":
			err = l.header(c)
		case "PLTE":
			err = l.readPalette(c)
		case "tRNS":
			err = l.transparency(c)
		case "IDAT":
			if l.w == 0 {
				return nil, errNotStreamed
			}
			return l.fit(c, side)
		default:
			err = c.skip()
		}
		if err != nil {
			return nil, err
		}
	}
}

// chunkData reads the whole of this (small) chunk and checks its CRC.
func chunkData(c *pngChunks, most int) ([]byte, error) {
	if c.left > int64(most) {
		return nil, errNotStreamed
	}
	data := make([]byte, c.left)
	if _, err := io.ReadFull(readerFunc(c.chunkRead), data); err != nil {
		return nil, err
	}
	return data, c.check()
}

func (l *pngLayout) header(c *pngChunks) error {
	d, err := chunkData(c, 13)
	if err != nil || len(d) != 13 {
		return errNotStreamed
	}
	l.w, l.h = int(binary.BigEndian.Uint32(d[0:])), int(binary.BigEndian.Uint32(d[4:]))
	l.depth, l.colour = int(d[8]), int(d[9])
	if d[10] != 0 || d[11] != 0 || d[12] != 0 { // not deflate, not adaptive, or interlaced
		return errNotStreamed
	}
	if CheckPixelsWithin(l.w, l.h, MaxPixels) != nil || l.w <= 0 || l.h <= 0 {
		return errNotStreamed
	}
	l.channels = map[int]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[l.colour]
	if l.channels == 0 || l.depth != 8 && (l.depth != 16 || l.colour == 3) {
		return errNotStreamed
	}
	l.bpp = l.channels * l.depth / 8
	l.alpha = l.colour == 4 || l.colour == 6
	return nil
}

func (l *pngLayout) readPalette(c *pngChunks) error {
	d, err := chunkData(c, 3*256)
	if err != nil || len(d)%3 != 0 {
		return errNotStreamed
	}
	l.palette = make([][4]byte, len(d)/3)
	for i := range l.palette {
		l.palette[i] = [4]byte{d[3*i], d[3*i+1], d[3*i+2], 255}
	}
	return nil
}

// transparency reads a paletted picture's alphas; a colour key (tRNS
// on grey or RGB) is left to the decoder.
func (l *pngLayout) transparency(c *pngChunks) error {
	if l.colour != 3 {
		return errNotStreamed
	}
	d, err := chunkData(c, 256)
	if err != nil || len(d) > len(l.palette) {
		return errNotStreamed
	}
	for i, a := range d {
		l.palette[i][3] = a
	}
	l.alpha = true
	return nil
}

// fit inflates the image data, whose first chunk c has begun, row by
// row into a shrinker, and scales what it made to side.
func (l *pngLayout) fit(c *pngChunks, side int) (image.Image, error) {
	k := shrinkFactor(l.w, l.h, side)
	if k < 2 {
		return nil, errNotStreamed
	}
	sh := &shrinker{k: k, w: l.w, h: l.h, size: image.Rect(0, 0, (l.w+k-1)/k, (l.h+k-1)/k), weigh: l.alpha}
	if l.alpha {
		o := image.NewRGBA64(sh.size)
		sh.out, sh.outPix, sh.wide = o, o.Pix, true
	} else {
		o := image.NewNRGBA(sh.size)
		sh.out, sh.outPix = o, o.Pix
	}
	idat := &idatReader{c: c}
	z, err := zlib.NewReader(idat)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	stride := l.w * l.bpp
	cur, prev := make([]byte, 1+stride), make([]byte, 1+stride)
	row := make([]byte, 4*l.w)
	cols := make([]uint32, 4*l.w)
	for y := range l.h {
		if _, err := io.ReadFull(z, cur); err != nil {
			return nil, err
		}
		if err := unfilter(cur[0], cur[1:], prev[1:], l.bpp); err != nil {
			return nil, err
		}
		if err := l.toNRGBA(cur[1:], row); err != nil {
			return nil, err
		}
		sh.sum(row, cols)
		if (y+1)%k == 0 || y == l.h-1 {
			sh.put(y/k, y%k+1, cols)
			clear(cols)
		}
		cur, prev = prev, cur
	}
	// The rest of the file, to its end, as the decoder reads it: a
	// file damaged after its last row is still damaged.
	if err := finish(z, idat, c); err != nil {
		return nil, err
	}
	return fitShrunk(sh.out, l.w, l.h, side), nil
}

// finish reads the rest of the stream z to its checksum, the rest of
// its image data, and the chunks after it to IEND.
func finish(z io.Reader, idat *idatReader, c *pngChunks) error {
	if _, err := io.Copy(io.Discard, z); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, idat); err != nil {
		return err
	}
	for {
		if err := c.skip(); err != nil {
			return err
		}
		if c.kind == "IEND" {
			return nil
		}
		if err := c.next(); err != nil {
			return err
		}
	}
}

// unfilter undoes a row's filter (PNG spec, 9.2), with prev the row
// above it, already unfiltered (zeros for the first).
func unfilter(kind byte, cur, prev []byte, bpp int) error {
	switch kind {
	case 0:
	case 1:
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case 2:
		for i := range cur {
			cur[i] += prev[i]
		}
	case 3:
		for i := range bpp {
			cur[i] += prev[i] / 2
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += uint8((int(cur[i-bpp]) + int(prev[i])) / 2)
		}
	case 4:
		for i := range bpp {
			cur[i] += prev[i] // the Paeth predictor of 0, b, 0 is b
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += byte(paethPredictor(int(cur[i-bpp]), int(prev[i]), int(prev[i-bpp])))
		}
	default:
		return errNotStreamed
	}
	return nil
}

// toNRGBA is an unfiltered row as 8-bit NRGBA (16-bit channels by their
// high byte, as drawing them to 8 bits keeps).
func (l *pngLayout) toNRGBA(src, dst []byte) error {
	step := l.depth / 8 // bytes a channel
	for x := range l.w {
		p, d := src[x*l.bpp:], dst[4*x:4*x+4]
		switch l.colour {
		case 0:
			d[0], d[1], d[2], d[3] = p[0], p[0], p[0], 255
		case 2:
			d[0], d[1], d[2], d[3] = p[0], p[step], p[2*step], 255
		case 3:
			if int(p[0]) >= len(l.palette) {
				return errNotStreamed // the decoder says what is wrong
			}
			copy(d, l.palette[p[0]][:])
		case 4:
			d[0], d[1], d[2], d[3] = p[0], p[0], p[0], p[step]
		case 6:
			d[0], d[1], d[2], d[3] = p[0], p[step], p[2*step], p[3*step]
		}
	}
	return nil
}

// idatReader is a PNG's image data: the data of its IDAT chunks, one
// after another, each one's CRC checked at its end.
type idatReader struct {
	c    *pngChunks
	done bool
}

func (r *idatReader) Read(p []byte) (int, error) {
	for r.c.left == 0 {
		if r.done {
			return 0, io.EOF
		}
		if err := r.c.check(); err != nil {
			return 0, err
		}
		if err := r.c.next(); err != nil {
			return 0, err
		}
		if r.c.kind != "IDAT" {
			r.done = true
			return 0, io.EOF
		}
	}
	return r.c.chunkRead(p)
}
