package export

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/c2pa"
	"easel/internal/framing"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/testsupport/credentials"
	"easel/internal/testsupport/signed"
)

// A kept copy made from a signed answer is a new work: exported, it
// declares itself a composite with a model's media in XMP (IPTC
// DigitalSourceType), carries no credential of its own, and its recipe
// names the answer's credential as its ingredient. The signed answer
// itself is exported byte for byte, its source type in the recipe
// beside it.
func TestACompositeNamesItsSignedIngredient(t *testing.T) {
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	store := credentials.Manifest(t, "gpt-image-1", "Signer Org")
	plain := signed.PNG(t, 32, 32)
	var clean []byte
	for kind, chunk := range framing.PNGChunks(plain) {
		if kind == "caBX" {
			continue
		}
		clean = append(clean, framing.Chunk(kind, chunk)...)
	}
	clean = append(append(append([]byte{}, plain[:8]...), clean...), framing.Chunk("IEND", nil)...)
	answer := signed.WithChunk(clean, "caBX", store)
	ctx := context.Background()
	rawID, err := l.Add(ctx, library.NewItem{Image: api.Image{Data: answer, Format: "png", Width: 32, Height: 32},
		Kind: "edit", Prompt: "a lantern <here> & there", Model: "gpt-image-1", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	keptID, err := l.Add(ctx, library.NewItem{Image: api.Image{Data: clean, Format: "png", Width: 32, Height: 32},
		Kind: "kept", Prompt: "a lantern <here> & there", Model: "gpt-image-1", Parents: []int64{rawID}, Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := l.Get(ctx, rawID)
	kept, _ := l.Get(ctx, keptID)
	pathOfItem := func(id int64) string {
		it, err := l.Get(ctx, id)
		if err != nil {
			return ""
		}
		return l.Path(it)
	}
	dir := t.TempDir()
	res := Run(ctx, []library.Item{raw, kept}, l.Path, Options{Dir: dir, Metadata: TextChunks, PathOfItem: pathOfItem}, nil)
	for _, r := range res {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	if got, _ := os.ReadFile(res[0].Path); !bytes.Equal(got, answer) {
		t.Error("the signed answer was changed on export")
	}
	side, _ := os.ReadFile(res[0].Path + ".json")
	if !strings.Contains(string(side), madeByModel) {
		t.Errorf("the signed answer's recipe does not say a model made it: %s", side)
	}
	got, _ := os.ReadFile(res[1].Path)
	var xmp string
	for kind, chunk := range framing.PNGChunks(got) {
		if kind == "iTXt" && bytes.HasPrefix(chunk, []byte("XML:com.adobe.xmp\x00")) {
			xmp = string(chunk)
		}
	}
	if !strings.Contains(xmp, "<Iptc4xmpExt:DigitalSourceType>"+composite+"</Iptc4xmpExt:DigitalSourceType>") ||
		!strings.Contains(xmp, "a lantern &lt;here&gt; &amp; there") {
		t.Errorf("the kept copy's XMP: %q", xmp)
	}
	if c2pa.Present(got) {
		t.Error("the kept copy claims a credential")
	}
	var recipe map[string]any
	for kind, chunk := range framing.PNGChunks(got) {
		if kind == "tEXt" && bytes.HasPrefix(chunk, []byte("easel\x00")) {
			_ = json.Unmarshal(chunk[len("easel\x00"):], &recipe)
		}
	}
	in, _ := recipe["ingredient"].(map[string]any)
	cred, _ := in["content_credentials"].(map[string]any)
	if in["gallery_item"] != float64(rawID) || cred["signer"] != "Signer Org" || cred["generator"] != "gpt-image-1" ||
		cred["signature"] != "the signature matches its certificate" {
		t.Errorf("the kept copy's ingredient: %v", recipe["ingredient"])
	}
}

// A Display P3 picture exported as WebP, which Easel writes without a
// profile, gets its colours converted to sRGB, as it will be read, and
// the recipe says so.
func TestAWebPExportOfAP3PictureIsConvertedToSRGB(t *testing.T) {
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	img := image.NewNRGBA(image.Rect(0, 0, 32, 24))
	for p := 0; p < len(img.Pix); p += 4 {
		copy(img.Pix[p:], []byte{200, 100, 50, 255})
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	profile, err := os.ReadFile("../colour/testdata/displayp3.icc")
	if err != nil {
		t.Fatal(err)
	}
	p3, _ := imageio.WithProfile(buf.Bytes(), profile, "Display P3")
	id, err := l.Add(context.Background(), library.NewItem{Image: api.Image{Data: p3, Format: "png", Width: 32, Height: 24},
		Kind: "import", Prompt: "a p3 field", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	it, _ := l.Get(context.Background(), id)
	res := Run(context.Background(), []library.Item{it}, l.Path, Options{Dir: t.TempDir(), Format: "webp", Quality: 100, Metadata: Sidecar}, nil)
	if res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	want, _ := imageio.SpaceOf(p3).ToSRGB(img)
	out, err := imageio.DecodeFile(res[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	w, g := want.NRGBAAt(5, 5), color.NRGBAModel.Convert(out.At(5, 5)).(color.NRGBA)
	if d := int(w.R) - int(g.R) + int(w.G) - int(g.G) + int(w.B) - int(g.B); d > 6 || d < -6 {
		t.Errorf("the WebP holds %v where the picture's sRGB colour is %v", g, w)
	}
	side, _ := os.ReadFile(res[0].Path + ".json")
	if !strings.Contains(string(side), "converted to sRGB from Display P3 Gamut with sRGB Transfer") {
		t.Errorf("the recipe does not say the colours were converted: %s", side)
	}
}
