// Package benchrefs makes the large reference images the upload
// benchmarks send: PNGs of noise (which does not compress), each just
// under the 50 MB an input may be, kept in the bench cache between runs.
package benchrefs

import (
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// Side is a reference's width and height: 3600² RGBA stored is 51.9 MB,
// under 50 MiB.
const Side = 3600

// Make returns n references, made once into $EASEL_BENCH_CACHE (or a
// temporary folder) and found there the next time.
func Make(tb testing.TB, n int) []string {
	tb.Helper()
	dir := os.Getenv("EASEL_BENCH_CACHE")
	if dir == "" {
		dir = tb.TempDir()
	}
	dir = filepath.Join(dir, "upload-refs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	var out []string
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("reference-%02d.png", i+1))
		out = append(out, path)
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if err := write(path, uint64(i)); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// write makes one reference at path, seeded so each differs (the
// gallery keeps inputs by content).
func write(path string, seed uint64) error {
	img := image.NewNRGBA(image.Rect(0, 0, Side, Side))
	r := rand.New(rand.NewPCG(seed, 43))
	for j := 0; j+8 <= len(img.Pix); j += 8 {
		v := r.Uint64()
		for k := range 8 {
			img.Pix[j+k] = uint8(v >> (8 * k))
		}
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(f, img); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}
