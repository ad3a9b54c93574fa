package imageio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"os"

	"easel/internal/catalogue"
	"easel/internal/wording"
)

// PrepareFile prepares the image file at path (shown as name) as Prepare
// does, reading only what its checks need, so an edit's sixteen large
// references are never in memory together. A PNG, JPEG or WebP that is
// sent as it is comes back with Path and Size and no Data: its header
// gives size and format, and its integrity is checked as it streams by
// (a PNG's chunk checksums, without inflating or drawing it; a JPEG or
// WebP decoded and let go, as they carry no checksum).
// A file that must change (converted, turned upright, scaled down) is
// read whole and prepared by Prepare.
func PrepareFile(path, name string) (Prepared, error) {
	f, err := os.Open(path)
	if err != nil {
		return Prepared{}, fmt.Errorf(catalogue.T("cannot open %s: %w"), name, wording.PathCause(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Prepared{}, fmt.Errorf(catalogue.T("cannot open %s: %w"), name, wording.PathCause(err))
	}
	if st.Size() == 0 {
		return Prepared{}, fmt.Errorf(catalogue.T("%s is empty (0 bytes): it holds no image"), name)
	}
	head := make([]byte, min(st.Size(), 128<<10))
	if _, err := io.ReadFull(f, head); err != nil {
		return Prepared{}, fmt.Errorf(catalogue.T("cannot read %s: %w"), name, err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(head))
	asIs := err == nil && st.Size() <= MaxUploadBytes && CheckPixels(cfg.Width, cfg.Height) == nil &&
		(format == "png" || format == "webp" || format == "jpeg" && exifOrientation(head) == 1)
	if !asIs {
		// Converted, turned, scaled or refused: Prepare says which.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return Prepared{}, err
		}
		return ReadPrepared(f, name)
	}
	return asItIs(f, path, name, st.Size(), cfg, format)
}

// asItIs prepares a file f (at path, shown as name) that is sent as it
// is: vetted where it is decoded, proved whole as it streams by.
func asItIs(f *os.File, path, name string, size int64, cfg image.Config, format string) (Prepared, error) {
	// A PNG is not decoded here (its chunks are walked), so it is left
	// to whoever first draws it (FitNewFile); a JPEG or WebP is.
	if format != "png" {
		if err := vetFile(path, name); err != nil {
			return Prepared{}, err
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Prepared{}, err
	}
	img, err := intact(bufio.NewReaderSize(f, 1<<20), format, size)
	if err != nil {
		return Prepared{}, fmt.Errorf(catalogue.T("%s looks like a %s image but is damaged or cut short"), name, formatName(format))
	}
	return Prepared{Path: path, Size: size, ContentType: "image/" + format, Format: format, Width: cfg.Width, Height: cfg.Height, Image: img}, nil
}

// intact reads a whole file of size bytes in format and reports whether
// it is whole: what decoding it proves, with as little held as each
// format allows. The picture of a JPEG or WebP, decoded to prove it, is
// handed back for its thumbnail; a PNG is never decoded (nil).
func intact(r io.Reader, format string, size int64) (image.Image, error) {
	switch format {
	case "png":
		return nil, pngIntact(r)
	case "webp":
		var riff [12]byte
		if _, err := io.ReadFull(r, riff[:]); err != nil {
			return nil, err
		}
		if int64(binary.LittleEndian.Uint32(riff[4:8]))+8 > size {
			return nil, errCutShort
		}
		img, _, err := image.Decode(io.MultiReader(bytes.NewReader(riff[:]), r))
		return img, err
	default:
		img, _, err := image.Decode(r)
		return img, err
	}
}

var errCutShort = errors.New("cut short")

// pngIntact walks a PNG's chunks to its end, checking each one's CRC:
// a file damaged anywhere, or cut short, fails, and nothing is inflated
// or drawn. (A stream a broken encoder wrote with good checksums is left
// to the service to refuse: inflating 800 MB to check for it doubled the
// time an edit took to start.)
func pngIntact(r io.Reader) error {
	var sig [8]byte
	if _, err := io.ReadFull(r, sig[:]); err != nil || string(sig[:]) != pngSignature {
		return errCutShort
	}
	c := &pngChunks{r: r}
	for {
		if err := c.next(); err != nil {
			return err
		}
		if err := c.skip(); err != nil {
			return err
		}
		if c.kind == "IEND" {
			return nil
		}
	}
}

const pngSignature = "\x89PNG\r\n\x1a\n"

// pngChunks reads a PNG's chunks in order, each one's CRC computed as
// its data is read.
type pngChunks struct {
	r    io.Reader
	kind string
	left int64 // bytes of this chunk's data not yet read
	crc  uint32
}

// next reads the next chunk's length and type.
func (c *pngChunks) next() error {
	var h [8]byte
	if _, err := io.ReadFull(c.r, h[:]); err != nil {
		return errCutShort
	}
	n := binary.BigEndian.Uint32(h[:4])
	if n > 1<<31-1 {
		return errCutShort
	}
	c.kind, c.left = string(h[4:8]), int64(n)
	c.crc = crc32.Update(0, crc32.IEEETable, h[4:8])
	return nil
}

// skip reads the rest of this chunk and checks its CRC.
func (c *pngChunks) skip() error {
	if _, err := io.Copy(io.Discard, io.LimitReader(readerFunc(c.chunkRead), c.left)); err != nil {
		return err
	}
	if c.left != 0 {
		return errCutShort
	}
	return c.check()
}

// chunkRead reads this chunk's data only.
func (c *pngChunks) chunkRead(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), c.left)]
	n, err := c.r.Read(p)
	c.crc = crc32.Update(c.crc, crc32.IEEETable, p[:n])
	c.left -= int64(n)
	return n, err
}

// check reads the CRC that ends this chunk and compares it.
func (c *pngChunks) check() error {
	var sum [4]byte
	if _, err := io.ReadFull(c.r, sum[:]); err != nil {
		return errCutShort
	}
	if binary.BigEndian.Uint32(sum[:]) != c.crc {
		return errors.New("checksum")
	}
	return nil
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
