package imageio

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quadrants is a w x h picture whose quarters differ (top left red, top
// right blue, bottom left green, bottom right white), so any turn or
// flip shows.
func quadrants(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, quadrantColour(x >= w/2, y >= h/2))
		}
	}
	return img
}

func quadrantColour(right, bottom bool) color.NRGBA {
	switch {
	case !right && !bottom:
		return color.NRGBA{255, 0, 0, 255}
	case right && !bottom:
		return color.NRGBA{0, 0, 255, 255}
	case !right:
		return color.NRGBA{0, 255, 0, 255}
	}
	return color.NRGBA{255, 255, 255, 255}
}

// stored is upright as a camera stores it for EXIF orientation o: the
// inverse of what the orientation asks a viewer to do.
func stored(upright *image.NRGBA, o int) *image.NRGBA {
	b := upright.Bounds()
	w, h := b.Dx(), b.Dy()
	// at maps a stored pixel (x, y) to the upright pixel it shows.
	var sw, sh int
	var at func(x, y int) (int, int)
	switch o {
	case 1:
		sw, sh, at = w, h, func(x, y int) (int, int) { return x, y }
	case 2: // shown mirrored left to right
		sw, sh, at = w, h, func(x, y int) (int, int) { return w - 1 - x, y }
	case 3: // shown turned 180°
		sw, sh, at = w, h, func(x, y int) (int, int) { return w - 1 - x, h - 1 - y }
	case 4: // shown mirrored top to bottom
		sw, sh, at = w, h, func(x, y int) (int, int) { return x, h - 1 - y }
	case 5: // shown transposed
		sw, sh, at = h, w, func(x, y int) (int, int) { return y, x }
	case 6: // shown turned 90° clockwise
		sw, sh, at = h, w, func(x, y int) (int, int) { return w - 1 - y, x }
	case 7: // shown transversed
		sw, sh, at = h, w, func(x, y int) (int, int) { return w - 1 - y, h - 1 - x }
	case 8: // shown turned 90° anticlockwise
		sw, sh, at = h, w, func(x, y int) (int, int) { return y, h - 1 - x }
	}
	out := image.NewNRGBA(image.Rect(0, 0, sw, sh))
	for y := range sh {
		for x := range sw {
			ux, uy := at(x, y)
			out.SetNRGBA(x, y, upright.NRGBAAt(ux, uy))
		}
	}
	return out
}

func near(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(p, q uint32) bool { return p>>8 > q>>8+40 || q>>8 > p>>8+40 }
	return !d(r1, r2) && !d(g1, g2) && !d(b1, b2)
}

// withHeader is a small PNG whose header claims w x h.
func withHeader(w, h uint32) []byte {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)))
	data := buf.Bytes()
	binary.BigEndian.PutUint32(data[16:], w)
	binary.BigEndian.PutUint32(data[20:], h)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}

// corruptInside is a PNG whose header and end are intact but whose pixel
// data is overwritten: only a full decode finds it.
func corruptInside(t *testing.T) []byte {
	data := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, quadrants(64, 64)) })
	i := bytes.Index(data, []byte("IDAT"))
	for j := i + 8; j < i+40 && j < len(data)-12; j++ {
		data[j] = 0xa5
	}
	return data
}

// The corpus: every odd or bad file a designer may drop, each prepared
// or refused as Edit promises. Files are made by the test, but for the
// CMYK JPEG, which Go cannot write (testdata/README.md).
func TestPrepareCorpus(t *testing.T) {
	cmyk, err := os.ReadFile("testdata/cmyk.jpg")
	if err != nil {
		t.Fatal(err)
	}
	sixteen := image.NewNRGBA64(image.Rect(0, 0, 30, 20))
	for i := range sixteen.Pix {
		sixteen.Pix[i] = 0xff
	}
	pal := image.NewPaletted(image.Rect(0, 0, 30, 20), color.Palette{color.NRGBA{0, 0, 0, 0}, color.NRGBA{255, 0, 0, 255}})
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i % 2)
	}
	frame := func(c uint8) *image.Paletted {
		f := image.NewPaletted(image.Rect(0, 0, 30, 20), color.Palette{color.Gray{0}, color.Gray{255}})
		for i := range f.Pix {
			f.Pix[i] = c
		}
		return f
	}
	pngData := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, quadrants(40, 20)) })
	type want struct {
		format        string
		width, height int
		asIs          bool   // sent byte for byte
		err           string // refused, saying this
	}
	cases := []struct {
		name string
		data []byte
		want want
	}{
		{"plain.png", pngData, want{format: "png", width: 40, height: 20, asIs: true}},
		{"deep.png", encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, sixteen) }), want{format: "png", width: 30, height: 20, asIs: true}},
		{"palette.png", encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, pal) }), want{format: "png", width: 30, height: 20, asIs: true}},
		{"dot.png", encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, image.NewGray(image.Rect(0, 0, 1, 1))) }), want{format: "png", width: 1, height: 1, asIs: true}},
		{"print.jpg", cmyk, want{format: "jpeg", width: 40, height: 20, asIs: true}},
		{"anim.gif", encoded(t, func(b *bytes.Buffer) error {
			return gif.EncodeAll(b, &gif.GIF{Image: []*image.Paletted{frame(1), frame(0), frame(1)}, Delay: []int{5, 5, 5}})
		}), want{format: "png", width: 30, height: 20}},
		{"empty.png", nil, want{err: "empty (0 bytes)"}},
		{"notes.txt", []byte("the client wants it bluer"), want{err: "not an image Easel can read"}},
		{"cut.png", pngData[:len(pngData)-30], want{err: "damaged or cut short"}},
		{"cut.jpg", encoded(t, func(b *bytes.Buffer) error { return jpeg.Encode(b, quadrants(64, 64), nil) })[:300], want{err: "damaged or cut short"}},
		{"scrambled.png", corruptInside(t), want{err: "damaged or cut short"}},
		{"photo.heic", append([]byte("\x00\x00\x00\x18ftypheic"), make([]byte, 64)...), want{err: "HEIC image"}},
		{"photo.avif", append([]byte("\x00\x00\x00\x18ftypavif"), make([]byte, 64)...), want{err: "AVIF image"}},
		{"huge.png", withHeader(20000, 20000), want{err: "20000x20000"}},
		{"bomb.png", withHeader(60000, 60000), want{err: "60000x60000"}},
		{"zero.png", withHeader(0, 0), want{err: "damaged or cut short"}},
	}
	upright := quadrants(40, 20)
	for o := 1; o <= 8; o++ {
		jpg := encoded(t, func(b *bytes.Buffer) error { return jpeg.Encode(b, stored(upright, o), &jpeg.Options{Quality: 95}) })
		cases = append(cases, struct {
			name string
			data []byte
			want want
		}{"orientation-" + string(rune('0'+o)) + ".jpg", withOrientation(jpg, uint16(o)), want{format: "jpeg", width: 40, height: 20, asIs: o == 1}})
	}
	if len(cases) < 20 {
		t.Fatalf("the corpus has %d files, want at least 20", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Prepare(c.name, c.data, MaxUploadBytes)
			fileAgrees(t, c.name, c.data, p, err)
			if c.want.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.want.err) {
					t.Fatalf("%v, want a refusal saying %q", err, c.want.err)
				}
				if c.data != nil && !strings.Contains(err.Error(), c.name) && !strings.Contains(c.name, "huge") && !strings.Contains(c.name, "bomb") {
					t.Errorf("the refusal %q does not name the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Format != c.want.format || p.Width != c.want.width || p.Height != c.want.height {
				t.Errorf("prepared as %s %dx%d, want %s %dx%d", p.Format, p.Width, p.Height, c.want.format, c.want.width, c.want.height)
			}
			if same := bytes.Equal(p.Data, c.data); same != c.want.asIs {
				t.Errorf("sent byte for byte: %v, want %v (notice %q)", same, c.want.asIs, p.Notice)
			}
			if !c.want.asIs && !strings.Contains(p.Notice, c.name) {
				t.Errorf("changed without a notice naming it: %q", p.Notice)
			}
			// What is sent decodes, at the size said, and its thumbnail
			// picture is the same one.
			img, _, err := image.Decode(bytes.NewReader(p.Data))
			if err != nil || img.Bounds().Dx() != p.Width || p.Image == nil || p.Image.Bounds().Size() != img.Bounds().Size() {
				t.Fatalf("what is sent does not decode as said: %v", err)
			}
			if strings.HasPrefix(c.name, "orientation-") || c.name == "print.jpg" || c.name == "plain.png" {
				// Upright: red top left, blue top right (the CMYK file is
				// red left, blue right).
				b := img.Bounds()
				if !near(img.At(b.Dx()/4, b.Dy()/4), color.NRGBA{255, 0, 0, 255}) || !near(img.At(3*b.Dx()/4, b.Dy()/4), color.NRGBA{0, 0, 255, 255}) {
					t.Errorf("not upright: top left %v, top right %v", img.At(b.Dx()/4, b.Dy()/4), img.At(3*b.Dx()/4, b.Dy()/4))
				}
				if c.name != "print.jpg" && (!near(img.At(b.Dx()/4, 3*b.Dy()/4), color.NRGBA{0, 255, 0, 255}) || !near(img.At(3*b.Dx()/4, 3*b.Dy()/4), color.NRGBA{255, 255, 255, 255})) {
					t.Errorf("not upright: bottom left %v, bottom right %v", img.At(b.Dx()/4, 3*b.Dy()/4), img.At(3*b.Dx()/4, 3*b.Dy()/4))
				}
			}
		})
	}
}

// fileAgrees checks that PrepareFile, reading the same bytes from a
// file, comes to what Prepare did: the same refusal, or the same image,
// sent from the file itself when Prepare sent the bytes as they are.
func fileAgrees(t *testing.T, name string, data []byte, want Prepared, wantErr error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := PrepareFile(path, name)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("from a file: %v; from bytes: %v", err, wantErr)
	}
	if err != nil {
		if err.Error() != wantErr.Error() {
			t.Errorf("from a file: %q; from bytes: %q", err, wantErr)
		}
		return
	}
	if got.Format != want.Format || got.Width != want.Width || got.Height != want.Height || got.Notice != want.Notice {
		t.Errorf("from a file %s %dx%d %q; from bytes %s %dx%d %q", got.Format, got.Width, got.Height, got.Notice, want.Format, want.Width, want.Height, want.Notice)
	}
	switch asIs := bytes.Equal(want.Data, data); {
	case asIs && (got.Path != path || got.Data != nil || got.Size != int64(len(data))):
		t.Errorf("a file sent as it is should be read from disk: path %q, %d bytes held, size %d", got.Path, len(got.Data), got.Size)
	case !asIs && !bytes.Equal(got.Data, want.Data):
		t.Errorf("a file that must change should be changed as the bytes are")
	}
}
