package c2pa

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"testing"

	"easel/internal/testsupport/signed"
)

func TestACredentialIsFoundInEachContainer(t *testing.T) {
	var plainPNG, plainJPEG bytes.Buffer
	png.Encode(&plainPNG, image.NewNRGBA(image.Rect(0, 0, 8, 8)))
	jpeg.Encode(&plainJPEG, image.NewNRGBA(image.Rect(0, 0, 8, 8)), nil)
	app11 := []byte("JP\x00\x00\x00\x00\x00\x01\x00\x00\x00\x20jumb\x00\x00\x00\x18jumdc2pa")
	seg := append([]byte{0xff, 0xeb, 0, byte(len(app11) + 2)}, app11...)
	signedJPEG := append(append([]byte{0xff, 0xd8}, seg...), plainJPEG.Bytes()[2:]...)
	webp := func(kind string) []byte {
		body := []byte("WEBP")
		body = append(body, []byte("VP8L")...)
		body = binary.LittleEndian.AppendUint32(body, 2)
		body = append(body, 0, 0)
		if kind != "" {
			body = append(body, []byte(kind)...)
			body = binary.LittleEndian.AppendUint32(body, 4)
			body = append(body, []byte("jumb")...)
		}
		return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
	}
	for _, c := range []struct {
		name string
		data []byte
		want bool
	}{
		{"signed PNG", signed.PNG(t, 8, 8), true},
		{"plain PNG", plainPNG.Bytes(), false},
		{"PNG with another chunk", signed.WithChunk(plainPNG.Bytes(), "tEXt", []byte("c2pa\x00caBX")), false},
		{"signed JPEG", signedJPEG, true},
		{"plain JPEG", plainJPEG.Bytes(), false},
		{"signed WebP", webp("C2PA"), true},
		{"plain WebP", webp(""), false},
		{"not an image", []byte("caBX c2pa jumb"), false},
		{"cut short", signed.PNG(t, 8, 8)[:20], false},
	} {
		if got := Present(c.data); got != c.want {
			t.Errorf("%s: Present %v, want %v", c.name, got, c.want)
		}
	}
}

// A WebP whose last chunk has an odd size and no pad byte, as a hostile
// or cut file may, is read to its end without running past it.
func TestAnOddLastWebPChunkIsNoCrash(t *testing.T) {
	body := append([]byte("WEBP"), []byte("VP8L")...)
	body = binary.LittleEndian.AppendUint32(body, 3)
	body = append(body, 1, 2, 3) // odd, and the file ends here
	riff := append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
	if Present(riff) {
		t.Error("an unsigned WebP was said to be signed")
	}
}
