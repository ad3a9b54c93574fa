// Package c2pa finds Content Credentials (C2PA manifests) in the image
// containers Easel handles, where the standard puts them: a PNG's caBX
// chunk, a JPEG's APP11 segments (JUMBF boxes labelled c2pa), a WebP's
// C2PA chunk. It reads only the containers' framing, to know that a
// file is signed and must be kept byte for byte; the manifest and its
// signature are not read here.
package c2pa

import (
	"bytes"
	"encoding/binary"
)

// Present reports whether data, a PNG, JPEG or WebP file, carries a
// C2PA manifest store. Writing anything into such a file (a text chunk,
// a re-encode) turns its credential into "present but tampered".
func Present(data []byte) bool {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return pngHas(data[8:])
	case bytes.HasPrefix(data, []byte{0xff, 0xd8}):
		return jpegHas(data[2:])
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return webpHas(data[12:])
	}
	return false
}

// pngHas walks a PNG's chunks for caBX.
func pngHas(b []byte) bool {
	for len(b) >= 12 {
		n := int(binary.BigEndian.Uint32(b[:4]))
		kind := string(b[4:8])
		if kind == "caBX" {
			return true
		}
		if kind == "IEND" || n < 0 || n > len(b)-12 {
			return false
		}
		b = b[12+n:]
	}
	return false
}

// jpegHas walks a JPEG's segments up to its image data for an APP11
// segment holding a JUMBF box of the c2pa manifest store.
func jpegHas(b []byte) bool {
	for len(b) >= 4 && b[0] == 0xff {
		marker := b[1]
		if marker == 0xda || marker == 0xd9 { // start of scan, end of image
			return false
		}
		n := int(binary.BigEndian.Uint16(b[2:4]))
		if n < 2 || n+2 > len(b) {
			return false
		}
		if marker == 0xeb && bytes.Contains(b[4:2+n], []byte("c2pa")) && bytes.Contains(b[4:2+n], []byte("jumb")) {
			return true
		}
		b = b[2+n:]
	}
	return false
}

// webpHas walks a WebP's RIFF chunks for C2PA.
func webpHas(b []byte) bool {
	for len(b) >= 8 {
		kind := string(b[:4])
		n := int(binary.LittleEndian.Uint32(b[4:8]))
		if kind == "C2PA" {
			return true
		}
		if n < 0 || n > len(b)-8 {
			return false
		}
		b = b[min(len(b), 8+n+n%2):] // an odd last chunk has no pad byte
	}
	return false
}
