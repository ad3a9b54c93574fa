package gallery

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/png"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/library"
	"easel/ui/room/roomtest"
)

// A GIF in the large view plays its frames, pauses, steps and says
// which frame shows; an SVG shows drawn.
func TestTheLargeViewPlaysAGIFAndDrawsAnSVG(t *testing.T) {
	g, h := newGallery(t)
	anim := &gif.GIF{}
	for i := range 3 {
		p := image.NewPaletted(image.Rect(0, 0, 30, 20), palette.Plan9)
		for x := range 10 {
			for y := range 20 {
				p.Set(i*10+x, y, color.White)
			}
		}
		anim.Image, anim.Delay = append(anim.Image, p), append(anim.Delay, 5)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		t.Fatal(err)
	}
	add := func(data []byte, format string, w, ht int) {
		if _, err := h.Library().Add(context.Background(), library.NewItem{Image: api.Image{Data: data, Format: format, Width: w, Height: ht},
			Kind: "generate", Prompt: "a " + format, Model: "gpt-image-2.6-flare", Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	add([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><rect width="300" height="100" fill="blue"/></svg>`), "svg", 300, 100)
	add(buf.Bytes(), "gif", 30, 20)
	h.UI(g.Reload)
	h.Until("two items", func() bool { return len(g.Items()) == 2 })
	h.UI(func() { g.openAt(0) }) // the newest: the GIF
	var p *player
	h.Until("the player", func() bool {
		return g.pane.large != nil && g.pane.large.player != nil && g.pane.large.player.bar.Visible()
	})
	h.UI(func() { p = g.pane.large.player })
	seen := map[int]bool{}
	h.Until("every frame played", func() bool {
		seen[p.at] = true
		return len(seen) == 3
	})
	var at int
	h.UI(func() {
		p.stepFrame(1) // pauses
		at = p.at
		if p.playing || !strings.Contains(p.label.Text, "of 3") {
			t.Errorf("stepping: playing %v, %q", p.playing, p.label.Text)
		}
	})
	time.Sleep(150 * time.Millisecond)
	h.UI(func() {
		if p.at != at {
			t.Error("a paused animation moved on")
		}
	})
	h.UI(func() { g.pane.large.step(1) }) // the SVG
	h.Until("the SVG drawn", func() bool {
		img := g.pane.large.v.Image()
		return img != nil && img.Bounds().Dx() == 300
	})
	h.UI(func() {
		if p.bar.Visible() || p.playing {
			t.Error("the player stayed on for an SVG")
		}
	})
}

// An item without a prompt is captioned by what it is: a cut-out never
// had one, only a recovered file lost it to a crash (issue 40, item 11).
func TestAPromptlessItemIsCaptionedByWhatItIs(t *testing.T) {
	g, h := newGallery(t)
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 8, 8)))
	id, err := h.Library().Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 8, Height: 8},
		Kind: "cutout", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	h.UI(func() { g.OpenID(id) })
	h.Until("the cut-out's caption", func() bool {
		said := ""
		roomtest.Walk(g.pane.box, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && l.Visible() {
				said += l.Text + "|"
			}
		})
		if strings.Contains(said, "recovered after a crash") {
			t.Fatalf("a cut-out is said to be recovered after a crash: %s", said)
		}
		return strings.Contains(said, "a cut-out made in Easel")
	})
}
