package cli

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/demoservice"
	"easel/internal/imageio"
)

// adobeMidTone is the colour: Adobe RGB (60,160,90), which is
// about sRGB (0,161,85).
var (
	adobeMidTone = color.NRGBA{60, 160, 90, 255}
	inSRGB       = color.NRGBA{0, 161, 85, 255}
)

// adobeFirstImage writes an 800×600 PNG of the mid-tone tagged Adobe RGB
// (1998), and a mask that keeps its left half.
func adobeFirstImage(t *testing.T, dir string) (first, mask string, profile []byte) {
	t.Helper()
	profile, err := os.ReadFile("../colour/testdata/adobergb.icc")
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 800, 600))
	m := image.NewNRGBA(img.Rect)
	for y := range 600 {
		for x := range 800 {
			img.SetNRGBA(x, y, adobeMidTone)
			if x < 400 {
				m.SetNRGBA(x, y, color.NRGBA{0, 0, 0, 255})
			}
		}
	}
	var buf, mbuf bytes.Buffer
	_ = png.Encode(&buf, img)
	_ = png.Encode(&mbuf, m)
	tagged, ok := imageio.WithProfile(buf.Bytes(), profile, "Adobe RGB (1998)")
	if !ok {
		t.Fatal("the profile could not be embedded")
	}
	first, mask = filepath.Join(dir, "photo.png"), filepath.Join(dir, "mask.png")
	if os.WriteFile(first, tagged, 0o644) != nil || os.WriteFile(mask, mbuf.Bytes(), 0o644) != nil {
		t.Fatal("cannot write the inputs")
	}
	return first, mask, profile
}

func near(a, b color.NRGBA, d int) bool {
	for _, p := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}} {
		if diff := int(p[0]) - int(p[1]); diff > d || -diff > d {
			return false
		}
	}
	return true
}

// `easel edit --keep` with an Adobe RGB first image of a shape the model
// cannot make: what is sent is sRGB, converted; the kept copy is the
// user's 800×600, carries the Adobe RGB profile, and its protected
// pixels are the original's numbers, unchanged.
func TestKeptEditOfAnAdobeRGBPhotoKeepsItsColours(t *testing.T) {
	srv, env, out, errOut := newest(t)
	dir := t.TempDir()
	first, mask, profile := adobeFirstImage(t, dir)
	code := Run([]string{"edit", "--model", "gpt-image-1", "--prompt", "a lake", "--image", first, "--mask", mask,
		"--keep", "--size", "match", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut.String(), "converted from") || !strings.Contains(errOut.String(), "Adobe RGB (1998) to sRGB") {
		t.Errorf("stderr does not say the first image was converted: %q", errOut)
	}
	sent := srv.LastAsked().First
	if sent == nil {
		t.Fatal("the service saw no first image")
	}
	// Padded to 1536×1024's shape: the picture sits in the middle.
	c := sent.Bounds().Size()
	if got := color.NRGBAModel.Convert(sent.At(c.X/2, c.Y/2)).(color.NRGBA); !near(got, inSRGB, 1) {
		t.Errorf("the service read the first image as %v, want the sRGB of Adobe RGB (60,160,90), about %v", got, inSRGB)
	}
	var kept string
	for _, p := range strings.Fields(out.String()) {
		if strings.Contains(filepath.Base(p), "kept") {
			kept = p
		}
	}
	if kept == "" {
		t.Fatalf("no kept copy among %q", out)
	}
	data, err := os.ReadFile(kept)
	if err != nil {
		t.Fatal(err)
	}
	icc, _, ok := imageio.EmbeddedProfile(data)
	if !ok || !bytes.Equal(icc, profile) {
		t.Fatal("the kept copy does not carry the original's Adobe RGB profile")
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Size() != image.Pt(800, 600) {
		t.Fatalf("kept copy is %v, want the user's 800×600", img.Bounds().Size())
	}
	for _, p := range []image.Point{{0, 0}, {200, 300}, {380, 599}} {
		if got := color.NRGBAModel.Convert(img.At(p.X, p.Y)).(color.NRGBA); got != adobeMidTone {
			t.Errorf("protected pixel %v is %v, want the original's %v", p, got, adobeMidTone)
		}
	}
	if got := color.NRGBAModel.Convert(img.At(700, 300)).(color.NRGBA); got == adobeMidTone {
		t.Errorf("the area the mask let change is still the original: %v", got)
	}
}

// `easel outpaint` of an Adobe RGB picture widens it in its own space:
// the canvas goes to the service converted to sRGB, and the result
// carries the Adobe RGB profile with the picture's own numbers put back.
func TestOutpaintOfAnAdobeRGBPictureKeepsItsColours(t *testing.T) {
	srv, env, out, errOut := newest(t)
	dir := t.TempDir()
	first, _, profile := adobeFirstImage(t, dir)
	if code := Run([]string{"outpaint", "--model", "gpt-image-1", "--image", first, "--size", "1536x1024", "--anchor", "left",
		"--prompt", "a wider lake", "--out", dir}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut.String(), "to sRGB") {
		t.Errorf("stderr does not say the canvas was converted: %q", errOut)
	}
	if got := color.NRGBAModel.Convert(srv.LastAsked().First.At(10, 300)).(color.NRGBA); !near(got, inSRGB, 1) {
		t.Errorf("the service read the canvas's picture as %v, want about %v", got, inSRGB)
	}
	data, err := os.ReadFile(strings.TrimSpace(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	if icc, _, ok := imageio.EmbeddedProfile(data); !ok || !bytes.Equal(icc, profile) {
		t.Fatal("the result does not carry the picture's Adobe RGB profile")
	}
	img, _ := png.Decode(bytes.NewReader(data))
	// 800x600 scaled onto a 1536x1024 canvas's height would change its
	// numbers; it is placed as it is (it fits), at the left, centred.
	top := (1024 - 600) / 2
	for _, p := range []image.Point{{5, top + 5}, {400, top + 300}, {790, top + 590}} {
		if got := color.NRGBAModel.Convert(img.At(p.X, p.Y)).(color.NRGBA); got != adobeMidTone {
			t.Errorf("the picture at %v is %v, its own %v", p, got, adobeMidTone)
		}
	}
}

// Against a route that answers in Display P3 (serve-demo
// --answer-profile), a kept edit of an sRGB picture reads the result in
// its space: where the mask let it change, the result's colours in sRGB;
// where it protected, the picture's own numbers; no profile kept.
func TestAResultInDisplayP3IsReadInIt(t *testing.T) {
	p3, err := os.ReadFile("../colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456", AnswerProfile: p3}))
	t.Cleanup(ts.Close)
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	dir := t.TempDir()
	pic := image.NewNRGBA(image.Rect(0, 0, 1024, 1024))
	m := image.NewNRGBA(pic.Rect)
	for y := range 1024 {
		for x := range 1024 {
			pic.SetNRGBA(x, y, color.NRGBA{30, 60, 90, 255})
			if x < 512 {
				m.SetNRGBA(x, y, color.NRGBA{A: 255})
			}
		}
	}
	first, mask := writePNG(t, dir, "plain.png", pic), writePNG(t, dir, "mask.png", m)
	if code := Run([]string{"edit", "--model", "gpt-image-1", "--prompt", "a lake", "--image", first, "--mask", mask, "--keep",
		"--size", "1024x1024", "--out", dir}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	paths := strings.Fields(out.String())
	raw, _ := os.ReadFile(paths[0])
	kept, _ := os.ReadFile(paths[1])
	if _, _, ok := imageio.EmbeddedProfile(kept); ok {
		t.Error("the kept copy of an sRGB picture carries a profile")
	}
	rawImg, _ := png.Decode(bytes.NewReader(raw))
	keptImg, _ := png.Decode(bytes.NewReader(kept))
	inSRGB, err := imageio.SpaceOf(raw).ToSRGB(rawImg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := color.NRGBAModel.Convert(keptImg.At(900, 500)).(color.NRGBA), inSRGB.NRGBAAt(900, 500); !near(got, want, 1) {
		t.Errorf("the changed area is %v; the result's colour in sRGB is %v (its numbers %v)", got, want, rawImg.At(900, 500))
	}
	if got := color.NRGBAModel.Convert(keptImg.At(100, 500)).(color.NRGBA); got != pic.NRGBAAt(100, 500) {
		t.Errorf("the protected area is %v, the picture's %v", got, pic.NRGBAAt(100, 500))
	}
}

// #57: `easel edit --keep` of an 800×600 picture with no --size let the
// service pick 1536x1024, charged, and then could not put the unmasked
// area back. Without --size, --keep now asks for the first image's shape,
// and the kept copy is the user's 800×600 with the protected pixels
// theirs; --size auto, which leaves the shape to the service, is refused
// before anything is sent.
func TestKeepWithoutASizeMatchesTheFirstImage(t *testing.T) {
	srv, env, out, errOut := newest(t)
	dir := t.TempDir()
	first, mask, _ := adobeFirstImage(t, dir)
	code := Run([]string{"edit", "--model", "gpt-image-1", "--prompt", "a lake", "--image", first, "--mask", mask, "--keep", "--out", dir}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var kept string
	for _, p := range strings.Fields(out.String()) {
		if strings.Contains(filepath.Base(p), "kept") {
			kept = p
		}
	}
	data, err := os.ReadFile(kept)
	if err != nil {
		t.Fatalf("no kept copy among %q: %v", out, err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil || img.Bounds().Size() != image.Pt(800, 600) {
		t.Fatalf("kept copy %v, %v; want 800×600", err, img)
	}
	if got := color.NRGBAModel.Convert(img.At(200, 300)).(color.NRGBA); got != adobeMidTone {
		t.Errorf("protected pixel is %v, want the original's %v", got, adobeMidTone)
	}
	before, _ := srv.ImageRequests()
	errOut.Reset()
	if code := Run([]string{"edit", "--model", "gpt-image-1", "--prompt", "a lake", "--image", first, "--mask", mask, "--keep", "--size", "auto", "--out", dir}, env); code != 2 ||
		!strings.Contains(errOut.String(), "use --size match") {
		t.Errorf("--keep --size auto: exit %d: %s", code, errOut)
	}
	if after, _ := srv.ImageRequests(); after != before {
		t.Errorf("%d requests sent for --size auto", after-before)
	}
}
