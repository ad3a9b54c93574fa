package colour

import (
	"encoding/binary"
	"errors"
	"image/color"
	"os"
	"testing"
)

// bomb is the Display P3 profile with one field overwritten, as #53's
// recipes do: each asked the ICC library for gigabytes before it read a
// byte, and Go's out-of-memory cannot be recovered.
func bomb(t testing.TB, patch func(p []byte) []byte) []byte {
	t.Helper()
	p, err := os.ReadFile("testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	return patch(p)
}

// tagAt is the offset of the tag table's entry for sig.
func tagAt(t testing.TB, p []byte, sig string) int {
	t.Helper()
	for i := range int(binary.BigEndian.Uint32(p[128:])) {
		if e := 132 + 12*i; string(p[e:e+4]) == sig {
			return e
		}
	}
	t.Fatalf("no %s tag", sig)
	return 0
}

// Bombs are the three recipes of #53 (testdata/bomb-*.icc, made by
// patching displayp3.icc as the issue says) and their neighbours.
func Bombs(t testing.TB) map[string][]byte {
	out := map[string][]byte{
		"lut16 of 255 inputs": bomb(t, func(p []byte) []byte {
			e := tagAt(t, p, "rTRC")
			lut := make([]byte, 64)
			copy(lut, "mft2")
			lut[8], lut[9], lut[10] = 255, 3, 255
			binary.BigEndian.PutUint32(p[e+4:], uint32(len(p)))
			binary.BigEndian.PutUint32(p[e+8:], uint32(len(lut)))
			p = append(p, lut...)
			binary.BigEndian.PutUint32(p[0:], uint32(len(p)))
			return p
		}),
		"says it is longer than it is": bomb(t, func(p []byte) []byte {
			return p[:len(p)-20]
		}),
	}
	for _, name := range []string{"bomb-tagcount.icc", "bomb-tagoffset.icc", "bomb-curve.icc"} {
		p, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = p
	}
	return out
}

func TestBrokenProfilesAreRefusedWithAReason(t *testing.T) {
	for name, p := range Bombs(t) {
		s, err := Parse(p, name)
		var broken *ProfileError
		if !errors.As(err, &broken) || s != nil {
			t.Errorf("%s: Parse = %v, %v; want a ProfileError", name, s, err)
			continue
		}
		if broken.Reason == "" {
			t.Errorf("%s: no reason", name)
		}
	}
}

// The profiles Easel converts from still pass, and sRGB is still nil.
func TestRealProfilesPassTheCheck(t *testing.T) {
	for _, file := range []string{"testdata/adobergb.icc", "testdata/displayp3.icc", "srgb.icc"} {
		p, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(p); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// FuzzProfile hands Parse, and the conversions of what it accepts, any
// bytes: none may panic, and none may allocate past the fuzzer's memory
// limit (the library's out-of-memory would end the run).
func FuzzProfile(f *testing.F) {
	for _, p := range Bombs(f) {
		f.Add(p)
	}
	for _, file := range []string{"testdata/adobergb.icc", "testdata/displayp3.icc", "srgb.icc"} {
		p, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		s, err := Parse(p, "fuzz")
		if err != nil || s == nil {
			return
		}
		_ = s.Label()
		px := one(color.NRGBA{10, 200, 30, 255})
		_, _ = s.ToSRGB(px)
		_, _ = s.FromSRGB(px)
	})
}
