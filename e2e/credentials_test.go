//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/c2pa"
	"easel/internal/framing"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/testsupport/credentials"
)

// seedCredentials puts in the library of home one picture for each
// state of colours and credentials the details say, oldest first: a
// gpt-image answer that came without a credential, one whose credential
// was changed after signing, a signed one, and a kept copy in Display
// P3 (Easel's composite: the original's credential does not apply).
func seedCredentials(t *testing.T, home string) {
	t.Helper()
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	picture := func(c color.NRGBA) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, 320, 240))
		for p := 0; p < len(img.Pix); p += 4 {
			copy(img.Pix[p:], []byte{c.R, c.G, c.B, c.A})
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		return buf.Bytes()
	}
	// The window trusts the signer of "signed" as a user-added root
	// (trust-roots.pem); the forged OpenAI signer it does not.
	var roots []byte
	signedBy := func(data []byte, generator, org string, trusted bool) []byte {
		store, root := credentials.Unverified(t, generator, org)
		if trusted {
			roots = append(roots, root...)
		}
		out, _ := c2pa.Embed(data, store)
		return out
	}
	signedWith := func(data []byte, generator string) []byte {
		return signedBy(data, generator, "Easel demo service (not OpenAI)", true)
	}
	tampered := bytes.Replace(signedWith(picture(color.NRGBA{90, 90, 160, 255}), "gpt-image-1"), []byte("gpt-image-1"), []byte("gpt-image-X"), -1)
	// The chunk's CRC no longer matches its data: the file is made whole
	// again around the changed credential, as a tool that edits it does.
	tampered = rechunk(t, tampered)
	profile, err := os.ReadFile("../internal/colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	p3, _ := imageio.WithProfile(picture(color.NRGBA{200, 100, 50, 255}), profile, "Display P3")
	for _, it := range []struct {
		data         []byte
		kind, prompt string
	}{
		{picture(color.NRGBA{120, 160, 90, 255}), "generate", "a lighthouse (came through a gateway)"},
		{tampered, "generate", "a lighthouse (credential changed)"},
		{signedBy(picture(color.NRGBA{200, 60, 120, 255}), "ChatGPT 1.0", "OpenAI", false), "generate", "a lighthouse (a forged OpenAI signer)"},
		{signedWith(picture(color.NRGBA{60, 120, 200, 255}), "gpt-image-1"), "generate", "a lighthouse (signed)"},
		{p3, "kept", "a lighthouse (kept copy, Display P3)"},
	} {
		if _, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: it.data, Format: "png", Width: 320, Height: 240},
			Kind: it.kind, Prompt: it.prompt, Model: "gpt-image-1"}); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(home, ".config", "easel")
	if err := os.MkdirAll(config, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(config, "trust-roots.pem"), roots, 0o600); err != nil {
		t.Fatal(err)
	}
}

// rechunk is a PNG with every chunk's CRC made right again.
func rechunk(t *testing.T, data []byte) []byte {
	t.Helper()
	out := append([]byte{}, data[:8]...)
	for kind, chunk := range framing.PNGChunks(data) {
		out = append(out, framing.Chunk(kind, chunk)...)
	}
	return append(out, framing.Chunk("IEND", nil)...)
}

// The details say, in the real window, each state of a picture's
// colours and credentials (issue 44), a forged "OpenAI" signer as a
// claim (#53): screenshots of each go to SCREENSHOT_DIR
// (docs/credentials-*.png).
func TestTheDetailsSayEachCredentialState(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	seedCredentials(t, home)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(t, bin, home, "--demo")
	p.waitSettled(ctx)
	p.key("ctrl+4")
	time.Sleep(time.Second)
	p.key("Right")
	p.key("Left")
	time.Sleep(700 * time.Millisecond)
	var shots []*image.RGBA
	for i, name := range []string{"kept-p3", "signed", "claimed", "changed", "none"} {
		if i > 0 {
			p.key("Right")
			time.Sleep(700 * time.Millisecond)
		}
		// The settings lie below the picture and the prompt: the
		// details are scrolled to them, the pointer over their text
		// (no click: the grid keeps the keys).
		time.Sleep(500 * time.Millisecond) // the file's lines are read
		xdo(t, "mousemove", "1060", "650")
		for range 20 {
			xdo(t, "click", "5")
			time.Sleep(40 * time.Millisecond)
		}
		time.Sleep(600 * time.Millisecond)
		shot := p.screenshot()
		shots = append(shots, shot)
		if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
			save(t, filepath.Join(dir, "credentials-"+name+".png"), shot)
		}
	}
	// Each state is drawn differently: the pane follows the cursor.
	for i := 1; i < len(shots); i++ {
		if n := differingPixels(shots[i-1], shots[i]); n < 500 {
			t.Errorf("the details for picture %d and %d differ by only %d pixels", i, i+1, n)
		}
	}
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}

// A kept edit of an Adobe RGB (1998) picture in the real window (issue
// 44): the kept copy carries the picture's profile and, away from the
// stroke, the picture's own numbers; the card says the picture went to
// the service converted to sRGB.
func TestAKeptEditOfAnAdobeRGBPictureKeepsItsColoursInRealWindow(t *testing.T) {
	bin := binary(t, "EASEL_BIN")
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	profile, err := os.ReadFile("../internal/colour/testdata/adobergb.icc")
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 1000, 300))
	for y := range 300 {
		for x := range 1000 {
			img.SetNRGBA(x, y, color.NRGBA{60, uint8(130 + y/10), 90, 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	tagged, ok := imageio.WithProfile(buf.Bytes(), profile, "Adobe RGB (1998)")
	if !ok {
		t.Fatal("the profile could not be embedded")
	}
	path := filepath.Join(home, "adobe.png")
	if err := os.WriteFile(path, tagged, 0o600); err != nil {
		t.Fatal(err)
	}
	p := start(t, bin, home, "--demo", path)
	p.waitDrawn(ctx)
	p.waitSettled(ctx)
	p.waitPicture(ctx, "the picture in the painter", image.Rect(100, 350, 800, 560))
	kept := p.keptEdit(ctx, home, "an adobe keep", false)
	time.Sleep(1500 * time.Millisecond) // the card fills in
	if dir := os.Getenv("SCREENSHOT_DIR"); dir != "" {
		save(t, filepath.Join(dir, "kept-edit-adobe-rgb.png"), p.screenshot())
	}
	lib, err := library.Open(filepath.Join(home, "easel"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	data, err := os.ReadFile(lib.Path(kept))
	if err != nil {
		t.Fatal(err)
	}
	if icc, _, ok := imageio.EmbeddedProfile(data); !ok || !bytes.Equal(icc, profile) {
		t.Error("the kept copy does not carry the picture's Adobe RGB profile")
	}
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil || got.Bounds().Size() != image.Pt(1000, 300) {
		t.Fatalf("the kept copy: %v, %v", err, got.Bounds())
	}
	for _, pt := range []image.Point{{3, 3}, {996, 3}, {3, 296}, {996, 296}} {
		if c := color.NRGBAModel.Convert(got.At(pt.X, pt.Y)); c != img.NRGBAAt(pt.X, pt.Y) {
			t.Errorf("the kept copy at %v is %v, the picture's own %v", pt, c, img.NRGBAAt(pt.X, pt.Y))
		}
	}
	p.key("ctrl+q")
	_ = p.waitExit(10 * time.Second)
}
