package imageio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"github.com/disintegration/imaging"
	"github.com/dustin/go-humanize"
	"github.com/rwcarlsen/goexif/exif"
	_ "golang.org/x/image/bmp"  // BMP inputs become PNG
	_ "golang.org/x/image/tiff" // TIFF inputs become PNG
	_ "golang.org/x/image/webp" // WebP inputs are sent as they are

	"easel/internal/catalogue"
)

// MaxReadBytes bounds what is read of one input file: a file over the
// upload limit is scaled down to fit, but one this large is no image a
// designer means to send.
const MaxReadBytes = 512 << 20

// Prepared is an input image as it is sent: PNG, JPEG and WebP byte for
// byte; anything Easel had to change, with what it did in Notice.
type Prepared struct {
	Data []byte
	// Path and Size, instead of Data, are a file sent as it is, read
	// from disk as it goes out (PrepareFile).
	Path          string
	Size          int64
	ContentType   string
	Format        string
	Width, Height int
	// Notice says what Easel did to the file ("" when nothing): a
	// designer should know the image sent is not the file they chose.
	Notice string
	// Image is the picture decoded (upright), which proved the file
	// whole: a caller makes its thumbnail from it rather than decode
	// the file again, and lets it go.
	Image image.Image
}

// ReadPrepared reads an input image named name from r and prepares it
// for the service (see Prepare).
func ReadPrepared(r io.Reader, name string) (Prepared, error) {
	data, _, err := ReadInput(r, name, MaxReadBytes)
	if err != nil {
		return Prepared{}, err
	}
	return Prepare(name, data, MaxUploadBytes)
}

// Prepare makes data (the file name) into what the service takes: PNG,
// JPEG and WebP are sent as they are; a GIF (its first frame), BMP or
// TIFF becomes PNG; a JPEG whose EXIF says it is rotated is turned
// upright; a file over limit bytes is scaled down until it fits. Refused,
// with a reason that names the file: an empty file, HEIC or AVIF (which
// Easel cannot read), a file that is no image or is damaged, a header
// that claims more pixels than MaxPixels (before any decode).
func Prepare(name string, data []byte, limit int64) (Prepared, error) {
	if len(data) == 0 {
		return Prepared{}, fmt.Errorf(catalogue.T("%s is empty (0 bytes): it holds no image"), name)
	}
	if kind := isoImage(data); kind != "" {
		return Prepared{}, fmt.Errorf(catalogue.T("%s is a %s image, which Easel cannot read: export it as PNG or JPEG and add that"), name, kind)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if kind := looksLike(data); kind != "" {
			return Prepared{}, fmt.Errorf(catalogue.T("%s looks like a %s image but is damaged or cut short"), name, kind)
		}
		return Prepared{}, fmt.Errorf(catalogue.T("%s is not an image Easel can read: PNG, JPEG and WebP work (GIF, BMP and TIFF are converted)"), name)
	}
	if err := CheckPixels(cfg.Width, cfg.Height); err != nil {
		return Prepared{}, fmt.Errorf("%s: %w", name, err)
	}
	orientation := 1
	if format == "jpeg" {
		orientation = exifOrientation(data)
	}
	if !complete(format, data) {
		return Prepared{}, fmt.Errorf(catalogue.T("%s looks like a %s image but is damaged or cut short"), name, formatName(format))
	}
	img, err := decodeWhole(name, format, data, orientation)
	if err != nil {
		return Prepared{}, err
	}
	asIs := (format == "png" || format == "jpeg" || format == "webp") && orientation == 1
	if asIs && int64(len(data)) <= limit {
		return Prepared{Data: data, ContentType: "image/" + format, Format: format, Width: cfg.Width, Height: cfg.Height, Image: img}, nil
	}

	var notes []string
	out := "png"
	switch {
	case format == "jpeg":
		out = "jpeg"
	case format == "gif":
		notes = append(notes, "converted from GIF (its first frame) to PNG")
	case format != "png" && format != "webp":
		notes = append(notes, "converted from "+formatName(format)+" to PNG")
	}
	if orientation != 1 {
		notes = append(notes, "turned upright, as its EXIF orientation asks")
	}
	b := img.Bounds()
	encoded, err := encodeAs(img, out)
	if err != nil {
		return Prepared{}, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(encoded)) > limit {
		// Scale by the square root of the size ratio, a little more
		// each try, until it fits.
		w0, h0 := b.Dx(), b.Dy()
		for try := 0; try < 6 && int64(len(encoded)) > limit; try++ {
			f := math.Sqrt(float64(limit)/float64(len(encoded))) * 0.9
			nw := max(1, int(float64(img.Bounds().Dx())*f))
			img = imaging.Resize(img, nw, 0, imaging.Lanczos)
			if encoded, err = encodeAs(img, out); err != nil {
				return Prepared{}, fmt.Errorf("%s: %w", name, err)
			}
		}
		if int64(len(encoded)) > limit {
			return Prepared{}, &TooBigError{Name: name, Limit: limit}
		}
		b = img.Bounds()
		notes = append(notes, catalogue.F("scaled down from %dx%d to %dx%d to fit the %s upload limit",
			w0, h0, b.Dx(), b.Dy(), humanize.IBytes(uint64(limit))))
	}
	p := Prepared{Data: encoded, ContentType: "image/" + out, Format: out, Width: b.Dx(), Height: b.Dy(), Image: img}
	if len(notes) > 0 {
		p.Notice = name + ": " + joinNotes(notes)
	}
	return p, nil
}

func encodeAs(img image.Image, format string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if format == "jpeg" {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	}
	return buf.Bytes(), err
}

func joinNotes(notes []string) string {
	s := notes[0]
	for i, n := range notes[1:] {
		if i == len(notes)-2 {
			s += " and " + n
		} else {
			s += ", " + n
		}
	}
	return s
}

// exifOrientation is a JPEG's EXIF orientation (1 to 8), 1 when it has
// none or it cannot be read.
func exifOrientation(data []byte) int {
	x, err := exif.Decode(bytes.NewReader(data))
	if err != nil {
		return 1
	}
	tag, err := x.Get(exif.Orientation)
	if err != nil {
		return 1
	}
	o, err := tag.Int(0)
	if err != nil || o < 1 || o > 8 {
		return 1
	}
	return o
}

// complete reports whether a PNG, JPEG or WebP file has its end: one that
// is sent as it is is not decoded, and a file cut short (a download that
// stopped, a sync not finished) must not go to the service as if whole.
func complete(format string, data []byte) bool {
	switch format {
	case "png":
		return bytes.HasSuffix(data, []byte("IEND\xaeB`\x82"))
	case "jpeg":
		tail := data[max(0, len(data)-4096):] // some cameras write bytes after the end marker
		return bytes.Contains(tail, []byte{0xff, 0xd9})
	case "webp":
		return len(data) >= 12 && int64(binary.LittleEndian.Uint32(data[4:8]))+8 <= int64(len(data))
	}
	return true
}

// isoImage names a HEIC or AVIF file (an ISO base media file with an
// image brand), "" for anything else.
func isoImage(data []byte) string {
	if len(data) < 12 || string(data[4:8]) != "ftyp" {
		return ""
	}
	switch string(data[8:12]) {
	case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
		return "HEIC"
	case "avif", "avis":
		return "AVIF"
	}
	return ""
}

// looksLike names the format a file's first bytes announce, "" when
// none is recognised.
func looksLike(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG")):
		return "PNG"
	case bytes.HasPrefix(data, []byte("\xff\xd8")):
		return "JPEG"
	case bytes.HasPrefix(data, []byte("GIF8")):
		return "GIF"
	case bytes.HasPrefix(data, []byte("BM")):
		return "BMP"
	case bytes.HasPrefix(data, []byte("II*\x00")), bytes.HasPrefix(data, []byte("MM\x00*")):
		return "TIFF"
	case len(data) >= 12 && string(data[0:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "WebP"
	}
	return ""
}

// formatName is a decoder's format name as a person writes it.
func formatName(format string) string {
	if name, ok := formatNames[format]; ok {
		return name
	}
	return format
}

var formatNames = map[string]string{"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "bmp": "BMP", "tiff": "TIFF", "webp": "WebP"}

// decodeWhole decodes a file (name) whole, upright: a file damaged inside
// (its end intact) is refused here, not by the service after the upload.
// The vetter draws it first, where a decoder's crash costs a child.
func decodeWhole(name, format string, data []byte, orientation int) (image.Image, error) {
	if err := Vet(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var img image.Image
	var err error
	if orientation == 1 {
		img, _, err = image.Decode(bytes.NewReader(data))
	} else {
		img, err = imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	}
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("%s looks like a %s image but is damaged or cut short"), name, formatName(format))
	}
	return img, nil
}
