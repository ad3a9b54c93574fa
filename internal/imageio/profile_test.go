package imageio

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"
)

// A profile carried from a PNG into a JPEG (in two APP2 segments, as a
// large one needs) and back into a PNG is the same bytes, and each file
// still decodes as it did.
func TestAColourProfileIsCarriedBetweenPNGAndJPEG(t *testing.T) {
	icc := make([]byte, 70_000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range icc {
		icc[i] = byte(r.IntN(256))
	}
	img := image.NewNRGBA(image.Rect(0, 0, 16, 8))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := EmbeddedProfile(p.Bytes()); ok {
		t.Fatal("a plain PNG has a profile")
	}
	pngWith, ok := WithProfile(p.Bytes(), icc, "Adobe RGB (1998)")
	if !ok {
		t.Fatal("no profile put in the PNG")
	}
	got, name, ok := EmbeddedProfile(pngWith)
	if !ok || name != "Adobe RGB (1998)" || !bytes.Equal(got, icc) {
		t.Fatalf("the PNG's profile: ok %v, name %q, %d bytes", ok, name, len(got))
	}
	if d := DeclaredColours(pngWith); !d.Profile {
		t.Error("the PNG does not declare its profile")
	}
	jpegWith, ok := WithProfile(j.Bytes(), got, name)
	if !ok {
		t.Fatal("no profile put in the JPEG")
	}
	back, _, ok := EmbeddedProfile(jpegWith)
	if !ok || !bytes.Equal(back, icc) {
		t.Fatalf("the JPEG's profile: ok %v, %d bytes", ok, len(back))
	}
	if d := DeclaredColours(jpegWith); !d.Profile {
		t.Error("the JPEG does not declare its profile")
	}
	for _, data := range [][]byte{pngWith, jpegWith} {
		m, _, err := image.Decode(bytes.NewReader(data))
		if err != nil || m.Bounds() != img.Bounds() {
			t.Errorf("with a profile the file decodes as %v: %v", m, err)
		}
	}
}

// A JPEG whose profile segments are not all there has no profile to
// carry: half a profile would be worse than none.
func TestAnIncompleteJPEGProfileIsNone(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 4, 4))
	var j bytes.Buffer
	if err := jpeg.Encode(&j, img, nil); err != nil {
		t.Fatal(err)
	}
	with, ok := WithProfile(j.Bytes(), make([]byte, 140_000), "")
	if !ok {
		t.Fatal("no profile put in the JPEG")
	}
	// Drop the second of three APP2 segments.
	first := 2
	n1 := int(with[first+2])<<8 | int(with[first+3])
	second := first + 2 + n1
	n2 := int(with[second+2])<<8 | int(with[second+3])
	cut := append(append([]byte{}, with[:second]...), with[second+2+n2:]...)
	if _, _, ok := EmbeddedProfile(cut); ok {
		t.Error("a profile with a segment missing was read as whole")
	}
}
