package imageio

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A picture the vetter could not draw is refused before this process
// decodes it, from bytes and from a file alike, with the vetter's reason
// and the file's name; the vetter is given the whole picture.
func TestAPictureTheVetterRefusesIsNeverDecodedHere(t *testing.T) {
	data := solid(64, 48, color.NRGBA{R: 200, A: 255})
	var seen [][]byte
	SetVetter(func(r io.Reader) ([]byte, error) {
		b, _ := io.ReadAll(r)
		seen = append(seen, b)
		return nil, errors.New("Easel could not draw this picture: a decoder's bug")
	})
	t.Cleanup(func() { SetVetter(nil) })

	if _, err := Prepare("pasted.png", data, MaxUploadBytes); err == nil || !strings.Contains(err.Error(), "pasted.png: Easel could not draw this picture: a decoder's bug") {
		t.Errorf("Prepare: %v", err)
	}
	// A PNG sent as it is is not decoded by PrepareFile (its chunks are
	// walked): the first to draw it, FitNewFile, vets it.
	path := filepath.Join(t.TempDir(), "dropped.png")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if p, err := PrepareFile(path, "dropped.png"); err != nil || p.Image != nil {
		t.Fatalf("PrepareFile decoded the PNG or refused it: %v", err)
	}
	if _, err := FitNewFile(path, "dropped.png", 64); err == nil || !strings.Contains(err.Error(), "dropped.png: Easel could not draw this picture") {
		t.Errorf("FitNewFile: %v", err)
	}
	jpg := filepath.Join(t.TempDir(), "dropped.jpg")
	if err := os.WriteFile(jpg, jpegOf(t, 64, 48), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareFile(jpg, "dropped.jpg"); err == nil || !strings.Contains(err.Error(), "dropped.jpg: Easel could not draw this picture") {
		t.Errorf("PrepareFile of a JPEG it decodes: %v", err)
	}
	if len(seen) != 3 || !bytes.Equal(seen[0], data) || !bytes.Equal(seen[1], data) {
		t.Errorf("the vetter saw %d pictures, not the three whole files", len(seen))
	}

	// A picture the vetter drew: its thumbnail is what FitNewFile scales.
	var thumb bytes.Buffer
	_ = png.Encode(&thumb, image.NewNRGBA(image.Rect(0, 0, 32, 24)))
	SetVetter(func(io.Reader) ([]byte, error) { return thumb.Bytes(), nil })
	if img, err := FitNewFile(path, "dropped.png", 64); err != nil || img.Bounds().Dx() != 32 {
		t.Errorf("a vetted picture: %v, %v", img, err)
	}
}

func jpegOf(t *testing.T, w, h int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewRGBA(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
