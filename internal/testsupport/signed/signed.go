// Package signed makes the PNGs the tests of Content Credentials need:
// one with a caBX chunk (a C2PA manifest store) as OpenAI's answers
// carry, and any chunk put into a PNG, with its CRC.
package signed

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"easel/internal/framing"
)

// Store is the manifest store a signed PNG carries: a JUMBF superbox
// labelled c2pa. Its signature is no real one: what is tested is that
// the file is kept, not that it verifies.
const Store = "\x00\x00\x00\x20jumb\x00\x00\x00\x18jumdc2pa\x00\x11\x00\x10manifest store"

// PNG is a w×h PNG with a caBX chunk after its header.
func PNG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, w, h))); err != nil {
		tb.Fatal(err)
	}
	return WithChunk(b.Bytes(), "caBX", []byte(Store))
}

// WithChunk is p, a PNG, with a chunk of kind holding data after its
// IHDR.
func WithChunk(p []byte, kind string, data []byte) []byte {
	out, ok := framing.AfterHeader(p, framing.Chunk(kind, data))
	if !ok {
		panic("signed: not a PNG")
	}
	return out
}
