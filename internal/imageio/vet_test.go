package imageio

import (
	"bytes"
	"errors"
	"image/color"
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
	SetVetter(func(r io.Reader) error {
		b, _ := io.ReadAll(r)
		seen = append(seen, b)
		return errors.New("Easel could not draw this picture: a decoder's bug")
	})
	t.Cleanup(func() { SetVetter(nil) })

	if _, err := Prepare("pasted.png", data, MaxUploadBytes); err == nil || !strings.Contains(err.Error(), "pasted.png: Easel could not draw this picture: a decoder's bug") {
		t.Errorf("Prepare: %v", err)
	}
	path := filepath.Join(t.TempDir(), "dropped.png")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareFile(path, "dropped.png"); err == nil || !strings.Contains(err.Error(), "dropped.png: Easel could not draw this picture") {
		t.Errorf("PrepareFile: %v", err)
	}
	if len(seen) != 2 || !bytes.Equal(seen[0], data) || !bytes.Equal(seen[1], data) {
		t.Errorf("the vetter saw %d pictures, not the two whole files", len(seen))
	}

	SetVetter(func(io.Reader) error { return nil })
	if p, err := PrepareFile(path, "dropped.png"); err != nil || p.Width != 64 {
		t.Errorf("a vetted picture: %+v, %v", p, err)
	}
}
