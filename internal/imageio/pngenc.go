package imageio

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/draw"
	"image/png"
	"sync"

	"easel/internal/cores"

	"github.com/klauspost/compress/flate"
)

// A kept edit of a 3840×2160 picture is 33 MB of pixels to write as a
// PNG, and the standard encoder does it on one core: most of a second
// at its fastest level, longer than decoding the three pictures the
// composite is made from (issue 43). No maintained Go encoder does it on
// several (docs/decisions.md), so EncodePNG cuts the rows into bands and
// filters and deflates each band on its own core, as pigz and mtpng do:
// each band's deflate stream but the last ends with a flush, on a byte
// boundary, so the bands joined are one zlib stream, and their Adler-32
// checksums are combined into its own. A band cannot refer back into
// the band before it, which costs a fraction of a percent of size.
// Each band is deflated by klauspost/compress's flate, whose fastest
// level is a third quicker than the standard library's and, on these
// pictures, smaller (docs/decisions.md); the filters are chosen from a
// sample of each row (chooseFilter).

// parallelFrom is the size, in pixels, from which a picture is encoded
// in bands; a smaller one (a thumbnail, a mask of a small edit) is not
// worth the goroutines.
const parallelFrom = 1 << 20

// bandBytes is the least of a band's filtered rows, in bytes: bands much
// smaller lose more to the restarted dictionary than they gain.
const bandBytes = 1 << 20

// EncodePNG is img as a PNG at the fastest compression: for the
// pictures Easel makes to send or keep (a padded upload, a composite, a
// mask, a thumbnail), written once and read back whole, where the time
// matters more than the bytes. A large picture of 8-bit colour is
// encoded in bands on every core; the file is an ordinary PNG, the same
// pixels as the standard encoder writes.
func EncodePNG(img image.Image) ([]byte, error) {
	b := img.Bounds()
	rows, ok := rowSource(img)
	if !ok || b.Dx()*b.Dy() < parallelFrom {
		var buf bytes.Buffer
		err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
		return buf.Bytes(), err
	}
	return encodeBands(rows, b.Dx(), b.Dy(), cores.Workers())
}

// pixelRows is a picture's 8-bit rows as a PNG holds them: RGB when it
// is opaque, else non-premultiplied RGBA.
type pixelRows struct {
	pix    []byte
	stride int
	// bpp is 3 (RGB, read from RGBA pixels, 4 apart) or 4 (RGBA).
	bpp int
}

// row is row y's pixels at the PNG's depth, into dst (len width*bpp).
func (p pixelRows) row(y, width int, dst []byte) {
	src := p.pix[y*p.stride : y*p.stride+width*4]
	if p.bpp == 4 {
		copy(dst, src)
		return
	}
	for x, d := 0, 0; x < len(src); x, d = x+4, d+3 {
		dst[d], dst[d+1], dst[d+2] = src[x], src[x+1], src[x+2]
	}
}

// rowSource reads img's rows for the banded encoder: an NRGBA or RGBA
// picture (a translucent RGBA one is taken to NRGBA first, as PNG
// stores unpremultiplied colour). Other kinds go to the standard
// encoder.
func rowSource(img image.Image) (pixelRows, bool) {
	switch m := img.(type) {
	case *image.NRGBA:
		if m.Rect.Min != (image.Point{}) {
			return pixelRows{}, false
		}
		if m.Opaque() {
			return pixelRows{m.Pix, m.Stride, 3}, true
		}
		return pixelRows{m.Pix, m.Stride, 4}, true
	case *image.RGBA:
		if m.Rect.Min != (image.Point{}) {
			return pixelRows{}, false
		}
		if m.Opaque() {
			return pixelRows{m.Pix, m.Stride, 3}, true
		}
		n := image.NewNRGBA(m.Rect)
		draw.Draw(n, n.Rect, m, image.Point{}, draw.Src)
		return pixelRows{n.Pix, n.Stride, 4}, true
	}
	return pixelRows{}, false
}

// band is one band's output: its deflate stream, and the Adler-32 and
// length of the filtered rows it holds.
type band struct {
	deflated []byte
	adler    uint32
	length   int
	err      error
}

// encodeBands writes the PNG of rows (w×h) in bands, workers at a time.
func encodeBands(rows pixelRows, w, h, workers int) ([]byte, error) {
	rowLen := 1 + w*rows.bpp
	per := max(1, bandBytes/rowLen, (h+4*workers-1)/(4*workers))
	var bands []*band
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, workers))
	for y0 := 0; y0 < h; y0 += per {
		b := &band{}
		bands = append(bands, b)
		y1, last := min(h, y0+per), y0+per >= h
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			*b = deflateBand(rows, w, y0, y1, last)
		}()
	}
	wg.Wait()
	var out bytes.Buffer
	out.Grow(64 + h*w)
	out.WriteString("\x89PNG\r\n\x1a\n")
	colourType := byte(2) // RGB
	if rows.bpp == 4 {
		colourType = 6 // RGBA
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, colourType // depth 8; compression, filter and interlace 0
	writeChunk(&out, "IHDR", ihdr)
	sum := uint32(1)
	for i, b := range bands {
		if b.err != nil {
			return nil, b.err
		}
		data := b.deflated
		if i == 0 {
			data = append([]byte{0x78, 0x01}, data...) // zlib: deflate, 32K window, fastest
		}
		sum = adler32Combine(sum, b.adler, b.length)
		if i == len(bands)-1 {
			data = binary.BigEndian.AppendUint32(data, sum)
		}
		writeChunk(&out, "IDAT", data)
	}
	writeChunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

// deflateBand filters rows y0 to y1 (each against the row above it,
// which may be the band before's) and deflates them, ending with a
// flush, or with the stream's end for the last band.
func deflateBand(rows pixelRows, w, y0, y1 int, last bool) band {
	n := w * rows.bpp
	prev, cur := make([]byte, n), make([]byte, n)
	if y0 > 0 {
		rows.row(y0-1, w, prev)
	}
	line := make([]byte, 1+n)
	var out bytes.Buffer
	zw, err := flate.NewWriter(&out, flate.BestSpeed)
	if err != nil {
		return band{err: err}
	}
	sum := adler32.New()
	length := 0
	for y := y0; y < y1; y++ {
		rows.row(y, w, cur)
		line[0] = chooseFilter(cur, prev, rows.bpp)
		applyFilter(line[0], line[1:], cur, prev, rows.bpp)
		_, _ = sum.Write(line)
		length += len(line)
		if _, err := zw.Write(line); err != nil {
			return band{err: err}
		}
		prev, cur = cur, prev
	}
	if last {
		err = zw.Close()
	} else {
		err = zw.Flush()
	}
	return band{deflated: out.Bytes(), adler: sum.Sum32(), length: length, err: err}
}

// sampleEvery is how far apart, in pixels, are the pixels a row's
// filter is chosen from.
const sampleEvery = 4

// chooseFilter is the filter for cur (prev the row above) by the
// standard encoder's and libpng's rule, the least sum of the filtered
// bytes read as signed, with the sums taken over every sampleEvery-th
// pixel: trying all five filters on the whole row was half of a 4K
// picture's encoding, and the rule is itself a guess at what deflates
// best (a photograph-like 4K picture comes out within a tenth of a
// percent of the size). Only the filter chosen is then applied
// (applyFilter).
func chooseFilter(cur, prev []byte, bpp int) byte {
	var sums [5]int
	for i := bpp; i < len(cur); i += sampleEvery * bpp {
		for j := i; j < i+bpp && j < len(cur); j++ {
			x, a, b, c := int(cur[j]), int(cur[j-bpp]), int(prev[j]), int(prev[j-bpp])
			sums[0] += absSigned(x)
			sums[1] += absSigned(x - a)
			sums[2] += absSigned(x - b)
			sums[3] += absSigned(x - (a+b)/2)
			sums[4] += absSigned(x - paethPredictor(a, b, c))
		}
	}
	best := 0
	for f := 1; f < 5; f++ {
		if sums[f] < sums[best] {
			best = f
		}
	}
	return byte(best)
}

// applyFilter writes cur filtered by f (PNG's None, Sub, Up, Average,
// Paeth) against prev into out, as long.
func applyFilter(f byte, out, cur, prev []byte, bpp int) {
	n := len(cur)
	switch f {
	case 0:
		copy(out, cur)
	case 1:
		copy(out[:bpp], cur[:bpp])
		for i := bpp; i < n; i++ {
			out[i] = cur[i] - cur[i-bpp]
		}
	case 2:
		for i := range n {
			out[i] = cur[i] - prev[i]
		}
	case 3:
		for i := range bpp {
			out[i] = cur[i] - prev[i]/2
		}
		for i := bpp; i < n; i++ {
			out[i] = cur[i] - byte((int(cur[i-bpp])+int(prev[i]))/2)
		}
	default:
		for i := range bpp {
			out[i] = cur[i] - prev[i] // Paeth of (0, b, 0) is b
		}
		paethRow(out[bpp:n], cur[bpp:n], prev[bpp:n], cur[:n-bpp], prev[:n-bpp])
	}
}

// paethRow filters cur by Paeth, given left and aboveLeft (cur and prev
// a pixel back), each slice cut to cur's length so the loop runs
// without bounds checks.
func paethRow(out, cur, above, left, aboveLeft []byte) {
	out, above, left, aboveLeft = out[:len(cur)], above[:len(cur)], left[:len(cur)], aboveLeft[:len(cur)]
	for i, x := range cur {
		out[i] = x - byte(paethPredictor(int(left[i]), int(above[i]), int(aboveLeft[i])))
	}
}

// absSigned is |v| for the byte v wraps to, read as signed (PNG's
// filter heuristic), without a branch: a photograph's residuals change
// sign at random.
func absSigned(v int) int {
	s := int(int8(v))
	m := s >> 63
	return (s ^ m) - m
}

// paethPredictor is PNG's Paeth predictor of a (left), b (above) and c
// (above left), chosen without a branch (the compiler's conditional
// moves): on a photograph's noise a branch is mispredicted every other
// pixel.
func paethPredictor(a, b, c int) int {
	pa, pb, pc := abs(b-c), abs(a-c), abs(a+b-2*c)
	p := c
	if pb <= pc {
		p = b
	}
	if pa <= min(pb, pc) {
		p = a
	}
	return p
}

func abs(v int) int {
	m := v >> 63
	return (v ^ m) - m
}

// writeChunk appends a PNG chunk: its length, type, data and CRC.
func writeChunk(w *bytes.Buffer, kind string, data []byte) {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	w.Write(head[:])
	w.Write(data)
	crc := crc32.NewIEEE()
	_, _ = crc.Write(head[4:])
	_, _ = crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	w.Write(tail[:])
}

// adler32Combine is the Adler-32 of two runs of bytes joined, from each
// run's checksum and the second's length (zlib's adler32_combine).
func adler32Combine(first, second uint32, secondLen int) uint32 {
	const base = 65521
	rem := uint32(secondLen % base)
	sum1 := first & 0xffff
	sum2 := (rem * sum1) % base
	sum1 += (second & 0xffff) + base - 1
	sum2 += (first >> 16) + (second >> 16) + base - rem
	for sum1 >= base {
		sum1 -= base
	}
	for sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}
