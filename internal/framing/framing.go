// Package framing walks the containers of the image files Easel reads
// without decoding them: a PNG's chunks, a JPEG's marker segments before
// its scan, a WebP's RIFF chunks. What a file says of itself (its colour
// profile, a Content Credential) is in that framing. Every length is
// checked against the data: a file cut short or lying about a length
// ends the walk, never a read past the end.
package framing

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"iter"
)

// Containers, as Kind names them.
const (
	PNG  = "png"
	JPEG = "jpeg"
	WebP = "webp"
)

// pngSignature starts every PNG.
const pngSignature = "\x89PNG\r\n\x1a\n"

// Kind is which container data is, or "" for none of the three.
func Kind(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte(pngSignature)):
		return PNG
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		return JPEG
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return WebP
	}
	return ""
}

// PNGChunks yields each chunk of a PNG file, its type and its data, up to
// IEND; nothing for another kind of file.
func PNGChunks(data []byte) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		if Kind(data) != PNG {
			return
		}
		b := data[len(pngSignature):]
		for len(b) >= 12 {
			n := int(binary.BigEndian.Uint32(b[:4]))
			kind := string(b[4:8])
			if kind == "IEND" || n < 0 || n > len(b)-12 {
				return
			}
			if !yield(kind, b[8:8+n]) {
				return
			}
			b = b[12+n:]
		}
	}
}

// JPEGSegments yields each marker segment of a JPEG file before its
// scan, its marker (0xe2 for APP2) and its payload after the length;
// nothing for another kind of file.
func JPEGSegments(data []byte) iter.Seq2[byte, []byte] {
	return func(yield func(byte, []byte) bool) {
		if Kind(data) != JPEG {
			return
		}
		b := data[2:]
		for len(b) >= 4 && b[0] == 0xff {
			marker := b[1]
			if marker == 0xda || marker == 0xd9 { // start of scan, end of image
				return
			}
			n := int(binary.BigEndian.Uint16(b[2:4]))
			if n < 2 || n+2 > len(b) {
				return
			}
			if !yield(marker, b[4:2+n]) {
				return
			}
			b = b[2+n:]
		}
	}
}

// WebPChunks yields each chunk of a WebP file, its fourcc and its data;
// nothing for another kind of file.
func WebPChunks(data []byte) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		if Kind(data) != WebP {
			return
		}
		b := data[12:]
		for len(b) >= 8 {
			n := int(binary.LittleEndian.Uint32(b[4:8]))
			if n < 0 || n > len(b)-8 {
				return
			}
			if !yield(string(b[:4]), b[8:8+n]) {
				return
			}
			b = b[min(len(b), 8+n+n%2):] // an odd last chunk has no pad byte
		}
	}
}

// Chunk is one PNG chunk of kind holding data: its length, type, data
// and CRC.
func Chunk(kind string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(make([]byte, 0, 12+len(data)), uint32(len(data)))
	out = append(append(out, kind...), data...)
	return binary.BigEndian.AppendUint32(out, crc32.Update(crc32.ChecksumIEEE([]byte(kind)), crc32.IEEETable, data))
}

// AfterHeader is a PNG file with chunks (each made by Chunk) put right
// after its IHDR, where what describes the picture belongs; ok is false
// when data is not a PNG that starts with its IHDR.
func AfterHeader(data []byte, chunks ...[]byte) (out []byte, ok bool) {
	const at = len(pngSignature) + 8 + 13 + 4 // the signature, then IHDR's length, type, 13 bytes and CRC
	if Kind(data) != PNG || len(data) < at || string(data[12:16]) != "IHDR" || binary.BigEndian.Uint32(data[8:12]) != 13 {
		return nil, false
	}
	out = append(make([]byte, 0, len(data)+64), data[:at]...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, data[at:]...), true
}
