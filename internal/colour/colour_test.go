package colour

import (
	"image"
	"image/color"
	"os"
	"testing"
)

func space(t *testing.T, file, name string) *Space {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data, name)
	if err != nil || s == nil {
		t.Fatalf("Parse(%s) = %v, %v", file, s, err)
	}
	return s
}

func one(c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	img.SetNRGBA(0, 0, c)
	return img
}

// near says whether a and b differ by at most d in each channel.
func near(a, b color.NRGBA, d int) bool {
	for _, p := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}, {a.A, b.A}} {
		if diff := int(p[0]) - int(p[1]); diff > d || -diff > d {
			return false
		}
	}
	return true
}

// The figure: Adobe RGB (60,160,90) is about sRGB (0,161,85),
// its red out of sRGB's gamut and clipped.
func TestAdobeRGBMidToneBecomesItsSRGBColour(t *testing.T) {
	s := space(t, "adobergb.icc", "Adobe RGB (1998)")
	out, err := s.ToSRGB(one(color.NRGBA{60, 160, 90, 255}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.NRGBAAt(0, 0), (color.NRGBA{0, 161, 85, 255}); !near(got, want, 1) {
		t.Fatalf("Adobe RGB (60,160,90) in sRGB = %v, want about %v", got, want)
	}
	if s.Label() != "Interchangeable with Adobe RGB (1998)" {
		t.Fatalf("label %q", s.Label())
	}
}

// A colour both spaces hold goes there and back unchanged (to the
// rounding of one 8-bit step), and alpha is never touched.
func TestInGamutColoursSurviveTheRoundTrip(t *testing.T) {
	for _, file := range []string{"adobergb.icc", "displayp3.icc"} {
		s := space(t, file, "")
		for _, c := range []color.NRGBA{{100, 150, 200, 255}, {128, 128, 128, 40}, {250, 240, 230, 255}, {0, 0, 0, 255}, {255, 255, 255, 255}} {
			there, err := s.FromSRGB(one(c))
			if err != nil {
				t.Fatal(err)
			}
			back, err := s.ToSRGB(there)
			if err != nil {
				t.Fatal(err)
			}
			if got := back.NRGBAAt(0, 0); !near(got, c, 1) {
				t.Errorf("%s: sRGB %v went there as %v and came back as %v", file, c, there.NRGBAAt(0, 0), got)
			}
		}
	}
}

// Display P3's pure red is redder than sRGB's: it is clipped to sRGB's
// red, not wrapped or left as is.
func TestDisplayP3RedIsClippedToSRGBRed(t *testing.T) {
	s := space(t, "displayp3.icc", "")
	out, _ := s.ToSRGB(one(color.NRGBA{255, 0, 0, 255}))
	if got := out.NRGBAAt(0, 0); !near(got, color.NRGBA{255, 0, 0, 255}, 1) {
		t.Fatalf("P3 red in sRGB = %v", got)
	}
	out, _ = s.ToSRGB(one(color.NRGBA{200, 100, 50, 255}))
	if got := out.NRGBAAt(0, 0); near(got, color.NRGBA{200, 100, 50, 255}, 3) {
		t.Fatalf("P3 (200,100,50) left as it was: %v", got)
	}
}

func TestAnSRGBProfileNeedsNothing(t *testing.T) {
	s, err := Parse(srgbICC, "sRGB")
	if err != nil || s != nil {
		t.Fatalf("Parse(sRGB) = %v, %v; want nil, nil", s, err)
	}
	if _, err := Parse([]byte("not a profile at all, but long enough to have a header of some kind"), ""); err == nil {
		t.Fatal("junk parsed as a profile")
	}
}

// Every row is converted, whatever the split among workers.
func TestEveryRowIsConverted(t *testing.T) {
	s := space(t, "adobergb.icc", "")
	img := image.NewNRGBA(image.Rect(0, 0, 3, 301))
	for y := range 301 {
		for x := range 3 {
			img.SetNRGBA(x, y, color.NRGBA{60, 160, 90, 255})
		}
	}
	out, _ := s.ToSRGB(img)
	for y := range 301 {
		if got := out.NRGBAAt(2, y); !near(got, color.NRGBA{0, 161, 85, 255}, 1) {
			t.Fatalf("row %d: %v", y, got)
		}
	}
	if img.NRGBAAt(0, 0) != (color.NRGBA{60, 160, 90, 255}) {
		t.Fatal("the source was changed")
	}
}

// The table of colours already met gives each pixel exactly the answer
// the transform gives, whatever colours share its slots.
func TestRememberedColoursAreExact(t *testing.T) {
	s := space(t, "displayp3.icc", "")
	img := image.NewNRGBA(image.Rect(0, 0, 257, 300))
	seed := uint32(1)
	for i := range img.Pix {
		seed = seed*1664525 + 1013904223
		img.Pix[i] = byte(seed >> 24)
	}
	out, err := s.ToSRGB(img)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.toSRGB()
	for y := 0; y < 300; y += 7 {
		for x := range 257 {
			c := img.NRGBAAt(x, y)
			r, g, b := p.Transform(float64(c.R)/255, float64(c.G)/255, float64(c.B)/255)
			if got, want := out.NRGBAAt(x, y), (color.NRGBA{to8(r), to8(g), to8(b), c.A}); got != want {
				t.Fatalf("(%d,%d) %v became %v, the transform says %v", x, y, c, got, want)
			}
		}
	}
}
