package framing

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"easel/internal/testsupport/fixture"
)

// A chunk put after the header is walked in its place, and the file
// still decodes; a file cut anywhere ends the walk without a panic.
func TestChunksAfterTheHeaderAreWalkedAndTheFileStillDecodes(t *testing.T) {
	p, ok := AfterHeader(fixture.SolidPNG(t, 4, 4, color.Black), Chunk("tEXt", []byte("k\x00v")), Chunk("zzZz", nil))
	if !ok {
		t.Fatal("AfterHeader refused a PNG")
	}
	var kinds []string
	for kind, data := range PNGChunks(p) {
		kinds = append(kinds, kind)
		if kind == "tEXt" && string(data) != "k\x00v" {
			t.Errorf("tEXt holds %q", data)
		}
	}
	if len(kinds) < 4 || kinds[0] != "IHDR" || kinds[1] != "tEXt" || kinds[2] != "zzZz" || kinds[3] != "IDAT" {
		t.Errorf("chunks %v", kinds)
	}
	if _, err := png.Decode(bytes.NewReader(p)); err != nil {
		t.Errorf("the PNG no longer decodes: %v", err)
	}
	for n := range len(p) {
		for range PNGChunks(p[:n]) {
		}
	}
	if _, ok := AfterHeader([]byte("not a png"), Chunk("tEXt", nil)); ok {
		t.Error("AfterHeader took what is not a PNG")
	}
}

// A JPEG's segments stop at its scan; a length past the end stops the
// walk.
func TestJPEGSegmentsStopAtTheScan(t *testing.T) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4)), nil); err != nil {
		t.Fatal(err)
	}
	seg := append([]byte{0xff, 0xe2, 0, 7}, []byte("hello")...)
	j := append(append([]byte{0xff, 0xd8}, seg...), b.Bytes()[2:]...)
	var markers []byte
	for m, data := range JPEGSegments(j) {
		markers = append(markers, m)
		if m == 0xe2 && string(data) != "hello" {
			t.Errorf("APP2 holds %q", data)
		}
	}
	if len(markers) == 0 || markers[0] != 0xe2 || bytes.Contains(markers, []byte{0xda}) {
		t.Errorf("markers % x", markers)
	}
	for n := range len(j) {
		for range JPEGSegments(j[:n]) {
		}
	}
}

// A WebP's odd last chunk, which has no pad byte, is walked and ends
// the walk.
func TestAnOddLastWebPChunk(t *testing.T) {
	body := []byte("WEBP")
	body = append(body, "VP8L"...)
	body = binary.LittleEndian.AppendUint32(body, 3)
	body = append(body, 1, 2, 3)
	w := append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
	var kinds []string
	for kind := range WebPChunks(w) {
		kinds = append(kinds, kind)
	}
	if len(kinds) != 1 || kinds[0] != "VP8L" {
		t.Errorf("chunks %v", kinds)
	}
	if Kind(w) != WebP || Kind([]byte("RIFF")) != "" {
		t.Error("Kind")
	}
}
