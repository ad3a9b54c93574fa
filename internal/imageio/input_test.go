package imageio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

func TestReadInputRefusesAFileOverTheLimitRatherThanCutIt(t *testing.T) {
	data := bytes.Repeat([]byte{0x89}, 1025)
	_, _, err := ReadInput(bytes.NewReader(data), "big.png", 1024)
	var tooBig *TooBigError
	if !errors.As(err, &tooBig) || !strings.Contains(err.Error(), "big.png") {
		t.Fatalf("a file one byte over the limit: %v, want a TooBigError naming it", err)
	}
	got, _, err := ReadInput(bytes.NewReader(data[:1024]), "fits.png", 1024)
	if err != nil || len(got) != 1024 {
		t.Fatalf("a file at the limit: %d bytes, %v", len(got), err)
	}
	if _, _, err := ReadInput(bytes.NewReader(nil), "empty.png", 1024); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty file: %v", err)
	}
}

// hugePNG is a 64x64 PNG whose header (with its CRC mended) claims
// 60000x60000 pixels.
func hugePNG() []byte {
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 64, 64)))
	data := buf.Bytes()
	// IHDR's width and height sit at bytes 16–23.
	binary.BigEndian.PutUint32(data[16:], 60000)
	binary.BigEndian.PutUint32(data[20:], 60000)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}

// A small file whose header claims a huge image is refused before any
// pixel is decoded.
func TestDecodeBoundedRefusesAHugeHeaderBeforeDecoding(t *testing.T) {
	var buf bytes.Buffer
	data := hugePNG()
	_, err := DecodeBounded(bytes.NewReader(data), MaxPixels)
	var tooLarge *TooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Width != 60000 {
		t.Fatalf("got %v, want a TooLargeError for 60000x60000", err)
	}
	buf.Reset()
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 64, 64)))
	if img, err := DecodeBounded(&buf, MaxPixels); err != nil || img.Bounds().Dx() != 64 {
		t.Fatalf("a plain 64x64 PNG: %v", err)
	}
}

// A JPEG whose size comes after large metadata (EXIF, an ICC profile:
// up to 64 KB a segment, several segments) still decodes.
func TestDecodeBoundedReadsAHeaderBehindLargeMetadata(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 32, 16)), nil); err != nil {
		t.Fatal(err)
	}
	plain := buf.Bytes()
	var withMeta bytes.Buffer
	withMeta.Write(plain[:2]) // SOI
	for i := 0; i < 3; i++ {  // three APP2 segments of 65,533 bytes
		withMeta.Write([]byte{0xff, 0xe2, 0xff, 0xff})
		withMeta.Write(make([]byte, 0xffff-2))
	}
	withMeta.Write(plain[2:])
	img, err := DecodeBounded(bytes.NewReader(withMeta.Bytes()), MaxPixels)
	if err != nil || img.Bounds().Dx() != 32 || img.Bounds().Dy() != 16 {
		t.Fatalf("a JPEG with 192 KB of metadata: %v", err)
	}
}

// An Edit input whose header claims a huge image is refused when it is
// read, with the check the answers and thumbnails use, naming the file.
func TestReadInputRefusesAHugeHeader(t *testing.T) {
	_, _, err := ReadInput(bytes.NewReader(hugePNG()), "bomb.png", MaxUploadBytes)
	var tooLarge *TooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "bomb.png") {
		t.Errorf("got %v, want a TooLargeError naming the file", err)
	}
}
