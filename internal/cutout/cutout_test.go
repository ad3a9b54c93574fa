package cutout

import (
	"image"
	"image/color"
	"math"
	"testing"
)

// disc is a foreground disc on a key, anti-aliased by 8×8 supersampling,
// with its true coverage (alpha) per pixel.
func disc(size int, r float64, fg, key color.NRGBA) (*image.NRGBA, []float64) {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	truth := make([]float64, size*size)
	c := float64(size) / 2
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			in := 0
			for sy := 0; sy < 8; sy++ {
				for sx := 0; sx < 8; sx++ {
					px, py := float64(x)+(float64(sx)+0.5)/8, float64(y)+(float64(sy)+0.5)/8
					if math.Hypot(px-c, py-c) <= r {
						in++
					}
				}
			}
			a := float64(in) / 64
			truth[y*size+x] = a
			mix := func(f, k uint8) uint8 { return uint8(math.Round(a*float64(f) + (1-a)*float64(k))) }
			img.SetNRGBA(x, y, color.NRGBA{mix(fg.R, key.R), mix(fg.G, key.G), mix(fg.B, key.B), 255})
		}
	}
	return img, truth
}

// On a synthetic picture with a known key and anti-aliased edges, the
// alpha matches the truth within 0.02 on average and 0.12 at worst (the
// faintest edge pixels lie within the tolerance of the key and are taken
// as background: 36 of the 310 levels between key and foreground), and
// the key's green is gone from the edge pixels.
func TestKeyMatchesTheTrueAlphaAndRemovesSpill(t *testing.T) {
	fg, key := color.NRGBA{200, 40, 60, 255}, color.NRGBA{0, 255, 0, 255}
	img, truth := disc(96, 30.3, fg, key)
	res := Key(img, Options{})
	if res.Key != key {
		t.Fatalf("the key found is %v, want %v", res.Key, key)
	}
	var sum, worst float64
	edges := 0
	for i, want := range truth {
		got := float64(res.Image.Pix[4*i+3]) / 255
		e := math.Abs(got - want)
		sum += e
		worst = max(worst, e)
		if want > 0 && want < 1 {
			edges++
			if want >= 0.25 {
				if g := res.Image.Pix[4*i+1]; math.Abs(float64(g)-float64(fg.G)) > 12 {
					t.Errorf("edge pixel %d (alpha %.2f) keeps the key's green: G=%d, want about %d", i, want, g, fg.G)
				}
			}
		}
	}
	mean := sum / float64(len(truth))
	t.Logf("alpha error: mean %.4f, worst %.3f over %d edge pixels", mean, worst, edges)
	if mean > 0.02 || worst > 0.12 {
		t.Errorf("alpha error: mean %.4f (goal 0.02), worst %.3f (goal 0.12)", mean, worst)
	}
}

// A foreground's middle keeps its opacity, near-key colours included;
// the key itself goes wherever it shows, enclosed gaps included.
func TestTheMiddleIsKeptAndEnclosedKeyGoes(t *testing.T) {
	key := color.NRGBA{0, 255, 0, 255}
	img, _ := disc(64, 24, color.NRGBA{40, 40, 200, 255}, key)
	for y := 30; y < 34; y++ {
		for x := 30; x < 34; x++ {
			img.SetNRGBA(x, y, key) // a gap in the middle
		}
	}
	img.SetNRGBA(20, 20, color.NRGBA{10, 230, 10, 255}) // a green button
	res := Key(img, Options{Key: &key, Tolerance: 20})
	if a := res.Image.NRGBAAt(31, 31).A; a != 0 {
		t.Errorf("the enclosed gap kept alpha %d", a)
	}
	if a := res.Image.NRGBAAt(20, 20).A; a != 255 {
		t.Errorf("a near-key button lost opacity: %d", a)
	}
	if a := res.Image.NRGBAAt(20, 32).A; a != 255 {
		t.Errorf("the foreground's middle lost opacity: %d", a)
	}
	if a := res.Image.NRGBAAt(1, 1).A; a != 0 {
		t.Errorf("the background kept alpha %d", a)
	}
}

func TestParseColour(t *testing.T) {
	for in, want := range map[string]color.NRGBA{"#00ff00": {0, 255, 0, 255}, "0f0": {0, 255, 0, 255}, " #FF8000 ": {255, 128, 0, 255}} {
		if got, err := ParseColour(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "#12345", "green", "#gg0000"} {
		if _, err := ParseColour(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}

// The brush's corrections win: a pixel brought back takes the original's
// colour, one painted away goes, the rest keep what the key made.
func TestRefine(t *testing.T) {
	key := color.NRGBA{0, 255, 0, 255}
	img, _ := disc(32, 10, color.NRGBA{200, 40, 60, 255}, key)
	res := Key(img, Options{Key: &key})
	removed := Removed(res.Image)
	if removed.AlphaAt(0, 0).A != 255 || removed.AlphaAt(16, 16).A != 0 {
		t.Fatalf("removed: corner %d, middle %d", removed.AlphaAt(0, 0).A, removed.AlphaAt(16, 16).A)
	}
	removed.SetAlpha(1, 1, color.Alpha{})      // brought back
	removed.SetAlpha(16, 16, color.Alpha{255}) // painted away
	out := Refine(img, res.Image, removed)
	if got := out.NRGBAAt(1, 1); got != (color.NRGBA{0, 255, 0, 255}) {
		t.Errorf("the pixel brought back is %v, want the original's", got)
	}
	if out.NRGBAAt(16, 16).A != 0 || out.NRGBAAt(16, 12) != res.Image.NRGBAAt(16, 12) {
		t.Errorf("painted away %v; untouched %v, keyed %v", out.NRGBAAt(16, 16), out.NRGBAAt(16, 12), res.Image.NRGBAAt(16, 12))
	}
}
