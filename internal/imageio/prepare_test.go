package imageio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// picture is a w x h image, left half red, right half blue, so a turn
// shows.
func picture(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{255, 0, 0, 255}
			if x >= w/2 {
				c = color.NRGBA{0, 0, 255, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func encoded(t *testing.T, enc func(*bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := enc(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withOrientation puts an EXIF APP1 segment with the given orientation
// right after a JPEG's start of image.
func withOrientation(jpg []byte, orientation uint16) []byte {
	var tiffData bytes.Buffer
	tiffData.WriteString("MM\x00\x2a")
	binary.Write(&tiffData, binary.BigEndian, uint32(8)) // IFD0 offset
	binary.Write(&tiffData, binary.BigEndian, uint16(1)) // one entry
	binary.Write(&tiffData, binary.BigEndian, uint16(0x0112))
	binary.Write(&tiffData, binary.BigEndian, uint16(3)) // SHORT
	binary.Write(&tiffData, binary.BigEndian, uint32(1))
	binary.Write(&tiffData, binary.BigEndian, orientation)
	binary.Write(&tiffData, binary.BigEndian, uint16(0))
	binary.Write(&tiffData, binary.BigEndian, uint32(0)) // no next IFD
	payload := append([]byte("Exif\x00\x00"), tiffData.Bytes()...)
	seg := []byte{0xff, 0xe1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

func TestPrepareSendsPNGJPEGAndWebPByteForByte(t *testing.T) {
	for name, data := range map[string][]byte{
		"a.png": encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, picture(40, 20)) }),
		"a.jpg": encoded(t, func(b *bytes.Buffer) error { return jpeg.Encode(b, picture(40, 20), nil) }),
	} {
		p, err := Prepare(name, data, MaxUploadBytes)
		if err != nil || !bytes.Equal(p.Data, data) || p.Notice != "" || p.Width != 40 {
			t.Errorf("%s: changed (%v, notice %q)", name, err, p.Notice)
		}
	}
}

func TestPrepareConvertsGIFBMPAndTIFFToPNG(t *testing.T) {
	pal := image.NewPaletted(image.Rect(0, 0, 40, 20), color.Palette{color.Black, color.White})
	for name, data := range map[string][]byte{
		"anim.gif": encoded(t, func(b *bytes.Buffer) error {
			return gif.EncodeAll(b, &gif.GIF{Image: []*image.Paletted{pal, pal}, Delay: []int{1, 1}})
		}),
		"scan.bmp":  encoded(t, func(b *bytes.Buffer) error { return bmp.Encode(b, picture(40, 20)) }),
		"scan.tiff": encoded(t, func(b *bytes.Buffer) error { return tiff.Encode(b, picture(40, 20), nil) }),
	} {
		p, err := Prepare(name, data, MaxUploadBytes)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Format != "png" || p.ContentType != "image/png" || !bytes.HasPrefix(p.Data, []byte("\x89PNG")) || p.Width != 40 {
			t.Errorf("%s: sent as %s %dx%d", name, p.Format, p.Width, p.Height)
		}
		if !strings.Contains(p.Notice, name) || !strings.Contains(p.Notice, "to PNG") {
			t.Errorf("%s: notice %q", name, p.Notice)
		}
	}
}

// A JPEG whose EXIF says "rotated 90°" is sent upright: the camera's
// portrait photo is not sent lying on its side.
func TestPrepareTurnsARotatedJPEGUpright(t *testing.T) {
	sideways := withOrientation(encoded(t, func(b *bytes.Buffer) error { return jpeg.Encode(b, picture(40, 20), nil) }), 6)
	p, err := Prepare("phone.jpg", sideways, MaxUploadBytes)
	if err != nil {
		t.Fatal(err)
	}
	if p.Width != 20 || p.Height != 40 || p.Format != "jpeg" || !strings.Contains(p.Notice, "upright") {
		t.Errorf("sent %dx%d %s, notice %q; want 20x40 JPEG turned upright", p.Width, p.Height, p.Format, p.Notice)
	}
}

// A file over the upload limit is scaled down until it fits, and says so.
func TestPrepareScalesDownAFileOverTheLimit(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.IntN(256)) // noise: PNG cannot shrink it
	}
	data := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, img) })
	const limit = 100 << 10
	p, err := Prepare("noise.png", data, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Data) > limit || p.Width >= 400 || !strings.Contains(p.Notice, "scaled down from 400x300") {
		t.Errorf("%d bytes, %dx%d, notice %q", len(p.Data), p.Width, p.Height, p.Notice)
	}
}

// Each refusal names the file and says why, in a designer's words.
func TestPrepareRefusesWithAReason(t *testing.T) {
	pngData := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, picture(40, 20)) })
	huge := hugePNG()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty.png", nil, "empty (0 bytes)"},
		{"photo.heic", append([]byte("\x00\x00\x00\x18ftypheic"), make([]byte, 32)...), "HEIC image, which Easel cannot read: export it as PNG or JPEG"},
		{"photo.avif", append([]byte("\x00\x00\x00\x18ftypavif"), make([]byte, 32)...), "AVIF image"},
		{"notes.txt", []byte("client wants blue"), "not an image Easel can read"},
		{"cut.png", pngData[:len(pngData)/2], "looks like a PNG image but is damaged or cut short"},
		{"bomb.png", huge, "60000x60000"},
	} {
		_, err := Prepare(c.name, c.data, MaxUploadBytes)
		if err == nil || !strings.Contains(err.Error(), c.want) || (c.data != nil && !strings.Contains(err.Error(), c.name) && c.name != "bomb.png") {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	var tooLarge *TooLargeError
	if _, err := Prepare("bomb.png", huge, MaxUploadBytes); !errors.As(err, &tooLarge) {
		t.Errorf("a huge header: %v, want a TooLargeError", err)
	}
}
