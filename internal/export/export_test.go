package export

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/testsupport/fixture"
	"easel/internal/testsupport/signed"
)

func gallery(t *testing.T, n int) (*library.Library, []library.Item) {
	t.Helper()
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var items []library.Item
	for i := 0; i < n; i++ {
		img := image.NewNRGBA(image.Rect(0, 0, 300, 200))
		for y := 0; y < 200; y++ {
			for x := 0; x < 300; x++ {
				img.SetNRGBA(x, y, color.NRGBA{byte(i * 40), byte(x / 2), 90, 255})
			}
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		id, err := l.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 300, Height: 200},
			Kind: "generate", Prompt: "A Lighthouse at dusk, watercolour — soft light", Model: "gpt-image-1",
			Params: library.Params{ImageOptions: api.ImageOptions{Size: "1536x1024", Quality: "high"}}, Created: time.Date(2026, 11, 2, 9, 0, 0, 0, time.Local)})
		if err != nil {
			t.Fatal(err)
		}
		it, _ := l.Get(context.Background(), id)
		items = append(items, it)
	}
	return l, items
}

func TestNamesAndNoOverwrite(t *testing.T) {
	l, items := gallery(t, 1)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, Name(items[0], "png")), []byte("mine"), 0o644)
	res := Run(context.Background(), []library.Item{items[0], items[0]}, l.Path, Options{Dir: dir}, nil)
	want := "a-lighthouse-at-dusk-watercolour-20261102-1"
	if res[0].Err != nil || res[1].Err != nil || filepath.Base(res[0].Path) == filepath.Base(res[1].Path) ||
		!strings.HasPrefix(filepath.Base(res[0].Path), want) {
		t.Fatalf("results %+v", res)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, Name(items[0], "png"))); string(data) != "mine" {
		t.Error("an existing file was replaced")
	}
	// The same format, no scaling: the original's bytes.
	orig, _ := os.ReadFile(l.Path(items[0]))
	got, _ := os.ReadFile(res[0].Path)
	if !bytes.Equal(orig, got) {
		t.Error("the bytes changed though the format is the same")
	}
}

func TestFormatsScaleAndMetadata(t *testing.T) {
	l, items := gallery(t, 3)
	for _, c := range []struct {
		format string
		long   int
		meta   Metadata
	}{{"jpeg", 0, Sidecar}, {"webp", 150, Sidecar}, {"png", 100, TextChunks}, {"webp", 0, TextChunks}} {
		dir := t.TempDir()
		res := Run(context.Background(), items, l.Path, Options{Dir: dir, Format: c.format, Quality: 85, LongSide: c.long, Metadata: c.meta}, nil)
		for _, r := range res {
			if r.Err != nil {
				t.Fatalf("%s: %v", c.format, r.Err)
			}
			data, _ := os.ReadFile(r.Path)
			img, format, err := image.Decode(bytes.NewReader(data))
			if err != nil || format != c.format {
				t.Fatalf("%s: wrote %s (%v)", c.format, format, err)
			}
			wantW := 300
			if c.long > 0 {
				wantW = c.long
			}
			if img.Bounds().Dx() != wantW {
				t.Errorf("%s long side %d: %d wide", c.format, c.long, img.Bounds().Dx())
			}
			// A round trip keeps the picture (lossy formats, roughly).
			orig, _ := os.ReadFile(l.Path(r.Item))
			o, _, _ := image.Decode(bytes.NewReader(orig))
			if c.long == 0 && !near(o.At(10, 10), img.At(10, 10)) {
				t.Errorf("%s: pixel %v became %v", c.format, o.At(10, 10), img.At(10, 10))
			}
			side := r.Path + ".json"
			if c.meta == TextChunks && c.format == "png" {
				if !bytes.Contains(data, []byte("tEXtDescription\x00A Lighthouse at dusk")) || !bytes.Contains(data, []byte(`"model":"gpt-image-1"`)) {
					t.Errorf("png: no text chunks")
				}
				if _, err := os.Stat(side); err == nil {
					t.Error("png with text chunks also got a JSON file")
				}
				continue
			}
			var meta map[string]any
			js, err := os.ReadFile(side)
			if err != nil || json.Unmarshal(js, &meta) != nil || meta["prompt"] != "A Lighthouse at dusk, watercolour — soft light" || meta["size"] != "1536x1024" {
				t.Errorf("%s: sidecar %s (%v)", c.format, js, err)
			}
		}
	}
}

func near(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { return x>>8 > y>>8+24 || y>>8 > x>>8+24 }
	return !d(r1, r2) && !d(g1, g2) && !d(b1, b2)
}

// A cancelled export stops, and leaves only whole files: each decodes,
// and no temporary file remains.
func TestACancelledExportLeavesNoPartialFile(t *testing.T) {
	l, items := gallery(t, 12)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var seen atomic.Int32
	res := Run(ctx, items, l.Path, Options{Dir: dir, Format: "webp", Quality: 100, Workers: 2}, func(done, total int) {
		if seen.Add(1) == 3 {
			cancel()
		}
	})
	written := 0
	for _, r := range res {
		if r.Path != "" {
			written++
		}
	}
	if written == 0 || written == len(items) {
		t.Errorf("%d of %d written: the cancel did not stop it midway", written, len(items))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("a temporary file remains: %s", e.Name())
		}
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if _, err := imageio.DecodeBounded(bytes.NewReader(data), imageio.MaxPixels); err != nil {
			t.Errorf("%s is not whole: %v", e.Name(), err)
		}
	}
	if len(entries) != written {
		t.Errorf("%d files for %d written", len(entries), written)
	}
}

// An answer signed with Content Credentials is exported byte for byte,
// even when the recipe is asked for as PNG text chunks: a text chunk is
// never written into a signed PNG; the recipe goes beside it, saying the
// credential was kept. A re-encode (another format) says it was not.
func TestASignedAnswerIsExportedByteForByte(t *testing.T) {
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	signedFile := signed.PNG(t, 64, 48)
	id, err := l.Add(context.Background(), library.NewItem{Image: api.Image{Data: signedFile, Format: "png", Width: 64, Height: 48},
		Kind: "generate", Prompt: "a signed lighthouse", Model: "gpt-image-1", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	it, _ := l.Get(context.Background(), id)
	dir := t.TempDir()
	res := Run(context.Background(), []library.Item{it}, l.Path, Options{Dir: dir, Metadata: TextChunks}, nil)
	if res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	got, _ := os.ReadFile(res[0].Path)
	if !bytes.Equal(got, signedFile) {
		t.Fatal("the signed PNG was changed on export")
	}
	if bytes.Contains(got, []byte("tEXt")) {
		t.Error("a text chunk was written into a signed PNG")
	}
	side, err := os.ReadFile(res[0].Path + ".json")
	if err != nil || !strings.Contains(string(side), "a signed lighthouse") || !strings.Contains(string(side), "present, kept") {
		t.Errorf("the recipe beside it: %s (%v)", side, err)
	}
	// The same picture as JPEG into the same folder: a recipe of its
	// own beside it, the PNG's left as it was.
	res = Run(context.Background(), []library.Item{it}, l.Path, Options{Dir: filepath.Dir(res[0].Path), Format: "jpeg", Metadata: Sidecar}, nil)
	if res[0].Err != nil {
		t.Fatalf("the JPEG beside the PNG: %v", res[0].Err)
	}
	side, _ = os.ReadFile(res[0].Path + ".json")
	if !strings.Contains(string(side), "not carried") {
		t.Errorf("a re-encoded export's recipe does not say the credential is gone: %s", side)
	}
}

// A picture with a colour profile (here an Adobe RGB one, as opaque
// bytes) exported as JPEG keeps its numbers and so its profile; the
// recipe says so.
func TestAProfiledPictureKeepsItsProfileWhenReEncoded(t *testing.T) {
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	img := image.NewNRGBA(image.Rect(0, 0, 32, 24))
	for i := range img.Pix {
		img.Pix[i] = byte(60 + i%100)
	}
	buf := fixture.PNG(t, img)
	icc := bytes.Repeat([]byte("adobe-rgb-1998 "), 200)
	profiled, ok := imageio.WithProfile(buf, icc, "Adobe RGB (1998)")
	if !ok {
		t.Fatal("no profile put in the PNG")
	}
	id, err := l.Add(context.Background(), library.NewItem{Image: api.Image{Data: profiled, Format: "png", Width: 32, Height: 24},
		Kind: "import", Prompt: "an adobe rgb field", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	it, _ := l.Get(context.Background(), id)
	res := Run(context.Background(), []library.Item{it}, l.Path, Options{Dir: t.TempDir(), Format: "jpeg", Metadata: Sidecar}, nil)
	if res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	out, _ := os.ReadFile(res[0].Path)
	got, _, ok := imageio.EmbeddedProfile(out)
	if !ok || !bytes.Equal(got, icc) {
		t.Errorf("the JPEG carries %d bytes of profile (ok %v), want the original's %d", len(got), ok, len(icc))
	}
	side, _ := os.ReadFile(res[0].Path + ".json")
	if !strings.Contains(string(side), "carried from the original: Adobe RGB (1998)") {
		t.Errorf("the recipe does not say the profile was carried: %s", side)
	}
}

// A picture without a prompt that was imported is named by its file's
// name; one with a prompt by the prompt.
func TestAnImportIsNamedByItsFile(t *testing.T) {
	for _, c := range []struct {
		it   library.Item
		want string
	}{
		{library.Item{Kind: "imported", SourceName: "Logo final.png"}, "logo-final"},
		{library.Item{Kind: "imported", SourceName: "海报.v2.webp"}, "海报-v2"},
		{library.Item{Kind: "imported"}, "easel"},
		{library.Item{Kind: "generate", Prompt: "A red kite", SourceName: "ignored.png"}, "a-red-kite"},
	} {
		if got := NameWords(c.it); got != c.want {
			t.Errorf("NameWords(%+v) = %q, want %q", c.it, got, c.want)
		}
	}
}
