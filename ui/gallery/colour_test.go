package gallery

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/testsupport/credentials"
	"easel/internal/testsupport/signed"
)

// p3Colours are two Display P3 colours and what they are in sRGB: P3's
// pure green lies outside sRGB (clipped to sRGB's green edge), and a
// warm mid-tone shifts visibly.
var p3Colours = []color.NRGBA{{0, 255, 0, 255}, {200, 100, 50, 255}}

// addP3Image adds a 64×64 picture tagged Display P3: the left half of
// p3Colours[0], the right of p3Colours[1].
func addP3Image(t *testing.T, lib *library.Library) (int64, []byte) {
	t.Helper()
	profile, err := os.ReadFile("../../internal/colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			img.SetNRGBA(x, y, p3Colours[x/32])
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	data, ok := imageio.WithProfile(buf.Bytes(), profile, "Display P3")
	if !ok {
		t.Fatal("the profile could not be embedded")
	}
	id, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: data, Format: "png", Width: 64, Height: 64},
		Kind: "import", Prompt: "p3", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return id, data
}

// at is img's colour at p.
func at(img image.Image, p image.Point) color.NRGBA {
	b := img.Bounds()
	return color.NRGBAModel.Convert(img.At(b.Min.X+p.X, b.Min.Y+p.Y)).(color.NRGBA)
}

// A Display P3 picture's thumbnail, details and large view show its
// colours converted to sRGB, never its numbers read as sRGB; the golden
// images hold the large view and the grid as drawn.
func TestADisplayP3PictureIsShownInItsColours(t *testing.T) {
	g, h := newGallery(t)
	id, data := addP3Image(t, h.Library())
	converted, err := imageio.SpaceOf(data).ToSRGB(image.NewNRGBA(image.Rect(0, 0, 2, 1)))
	if err != nil {
		t.Fatal(err)
	}
	converted.SetNRGBA(0, 0, p3Colours[0])
	converted.SetNRGBA(1, 0, p3Colours[1])
	converted, _ = imageio.SpaceOf(data).ToSRGB(converted)
	want := []color.NRGBA{converted.NRGBAAt(0, 0), converted.NRGBAAt(1, 0)}
	if want[1] == p3Colours[1] {
		t.Fatalf("the test's colour %v does not change in sRGB", p3Colours[1])
	}
	check := func(where string, img image.Image) {
		t.Helper()
		b := img.Bounds()
		for i, p := range []image.Point{{b.Dx() / 4, b.Dy() / 2}, {3 * b.Dx() / 4, b.Dy() / 2}} {
			if got := at(img, p); got != want[i] {
				t.Errorf("%s shows P3 %v as %v, want sRGB %v", where, p3Colours[i], got, want[i])
			}
		}
	}

	h.UI(g.Reload)
	h.Until("the item", func() bool { return len(g.Items()) == 1 })
	it := g.Items()[0]
	thumb, err := h.Library().Thumbnails().Thumbnail(it)
	if err != nil {
		t.Fatal(err)
	}
	if img, err := imageio.DecodeFile(thumb); err != nil {
		t.Fatal(err)
	} else {
		check("the thumbnail", img)
	}
	h.UI(func() { g.Grid().Select(0) })
	h.Until("the details", func() bool { return g.Shown() != nil && g.Opened() == id })
	check("the details", g.Shown())

	var large *largeView
	h.UI(func() {
		g.pane.viewLarge(it)
		large = g.pane.large
	})
	h.Until("the large view", func() bool { return large.v != nil && large.v.Image() != nil })
	h.UI(func() {
		check("the large view", large.v.Image())
		h.Window().Resize(fyne.NewSize(640, 480))
		test.AssertRendersToImage(t, "p3-large-view.png", h.Window().Canvas())
	})
}

// The details say what a file declares of its colours and credentials,
// and that a picture Easel made from another has none of its own.
func TestDetailsSayColoursAndCredentials(t *testing.T) {
	var plain bytes.Buffer
	_ = png.Encode(&plain, image.NewNRGBA(image.Rect(0, 0, 8, 8)))
	profile, err := os.ReadFile("../../internal/colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	p3, _ := imageio.WithProfile(plain.Bytes(), profile, "Display P3")
	signedPNG := signed.WithChunk(plain.Bytes(), "caBX", []byte("\x00\x00\x00\x10jumbjumdc2pa"))
	store := credentials.Manifest(t, "gpt-image-1", "OpenAI test")
	verified := signed.WithChunk(plain.Bytes(), "caBX", store)
	for _, c := range []struct {
		kind, model string
		data        []byte
		want        []string
	}{
		{"generate", "gpt-image-1", signedPNG, []string{"no profile, read as sRGB", "present, not verified"}},
		{"generate", "gpt-image-1", verified, []string{"signed by OpenAI test, made with gpt-image-1; the signature matches its certificate"}},
		{"kept", "gpt-image-1", p3, []string{"Display P3 Gamut with sRGB Transfer, from its embedded profile; shown and sent converted to sRGB", "Easel made this picture from another"}},
		{"generate", "gpt-image-1", plain.Bytes(), []string{"none, though OpenAI signs what its gpt-image models make"}},
		{"generate", "dall-e-3", plain.Bytes(), []string{"Content Credentials: none"}},
	} {
		got := FileLines(library.Item{Kind: c.kind, Model: c.model, Format: "png"}, c.data)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", c.kind, got, w)
			}
		}
	}
}

// The credentials filter keeps the items whose files carry Content
// Credentials in the state chosen.
func TestTheGalleryFiltersByCredentials(t *testing.T) {
	g, h := newGallery(t)
	addImage(t, h.Library(), "plain", 16)
	if _, err := h.Library().Add(context.Background(), library.NewItem{Image: api.Image{Data: signed.PNG(t, 16, 16), Format: "png", Width: 16, Height: 16},
		Kind: "generate", Prompt: "with a store", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	h.UI(g.Reload)
	h.Until("both", func() bool { return g.Total() == 2 })
	h.UI(func() { g.filters.credentials.SetSelected("Unverified") })
	h.Until("the one with a store", func() bool {
		it, ok := g.item(0)
		return g.Total() == 1 && ok && it.Prompt == "with a store"
	})
	h.UI(func() { g.filters.credentials.SetSelected("Unsigned") })
	h.Until("the plain one", func() bool {
		it, ok := g.item(0)
		return g.Total() == 1 && ok && it.Prompt == "plain"
	})
	h.UI(func() { g.filters.credentials.SetSelected("Signed") })
	h.Until("none signed", func() bool { return g.Total() == 0 })
}
