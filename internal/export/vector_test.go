package export

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"os"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/library"
)

// An SVG and an animated GIF leave as they came, in their own format,
// whatever the export's size or quality: a drawing scales itself, and a
// GIF decoded to be scaled would lose its frames. As PNG they are
// pictures of the drawing and of the first frame.
func TestSVGAndGIFLeaveAsTheyCame(t *testing.T) {
	l, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="200" height="200" fill="red"/></svg>`)
	anim := &gif.GIF{}
	for i := range 3 {
		p := image.NewPaletted(image.Rect(0, 0, 64, 64), palette.Plan9)
		p.Set(i, i, color.White)
		anim.Image, anim.Delay = append(anim.Image, p), append(anim.Delay, 10)
	}
	var gb bytes.Buffer
	if err := gif.EncodeAll(&gb, anim); err != nil {
		t.Fatal(err)
	}
	var items []library.Item
	for _, f := range []struct {
		format string
		data   []byte
		w, h   int
	}{{"svg", svg, 400, 200}, {"gif", gb.Bytes(), 64, 64}} {
		id, err := l.Add(context.Background(), library.NewItem{Image: api.Image{Data: f.data, Format: f.format, Width: f.w, Height: f.h},
			Kind: "generate", Prompt: "a mark", Model: "gpt-image-2.6-flare", Created: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		it, _ := l.Get(context.Background(), id)
		if filepath.Ext(l.Path(it)) != "."+f.format {
			t.Errorf("kept as %s", l.Path(it))
		}
		items = append(items, it)
	}
	for _, r := range Run(context.Background(), items, l.Path, Options{Dir: t.TempDir(), Quality: 80, LongSide: 32, Metadata: TextChunks}, nil) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		got, _ := os.ReadFile(r.Path)
		orig, _ := os.ReadFile(l.Path(r.Item))
		if !bytes.Equal(got, orig) || filepath.Ext(r.Path) != "."+r.Item.Format {
			t.Errorf("%s left as %s, %d bytes of %d", r.Item.Format, r.Path, len(got), len(orig))
		}
	}
	for _, r := range Run(context.Background(), items, l.Path, Options{Dir: t.TempDir(), Format: "png"}, nil) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		data, _ := os.ReadFile(r.Path)
		if _, format, err := image.Decode(bytes.NewReader(data)); err != nil || format != "png" {
			t.Errorf("%s as PNG: %s %v", r.Item.Format, format, err)
		}
	}
}
