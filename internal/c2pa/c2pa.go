// Package c2pa finds and reads Content Credentials (C2PA manifests) in
// the image containers Easel handles, where the standard puts them: a
// PNG's caBX chunk, a JPEG's APP11 segments (JUMBF boxes labelled c2pa),
// a WebP's C2PA chunk. Present says a file is signed and must be kept
// byte for byte; Read says who signed it, what made it and whether the
// signature matches (CBOR by fxamacker/cbor, COSE by veraison/go-cose:
// neither is written by hand here); Sign makes the demo service's.
package c2pa

import (
	"bytes"

	"easel/internal/framing"
)

// Present reports whether data, a PNG, JPEG or WebP file, carries a
// C2PA manifest store. Writing anything into such a file (a text chunk,
// a re-encode) turns its credential into "present but tampered".
func Present(data []byte) bool {
	for kind := range framing.PNGChunks(data) {
		if kind == "caBX" {
			return true
		}
	}
	for marker, seg := range framing.JPEGSegments(data) {
		// APP11, holding a JUMBF box of the c2pa manifest store.
		if marker == 0xeb && bytes.Contains(seg, []byte("c2pa")) && bytes.Contains(seg, []byte("jumb")) {
			return true
		}
	}
	for kind := range framing.WebPChunks(data) {
		if kind == "C2PA" {
			return true
		}
	}
	return false
}
