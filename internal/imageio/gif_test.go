package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"testing"
	"time"
)

func TestAnAnimationPlaysEveryFrameAtItsPace(t *testing.T) {
	g := &gif.GIF{}
	for i := range 4 {
		p := image.NewPaletted(image.Rect(0, 0, 32, 16), palette.Plan9)
		for x := range 8 {
			p.Set(i*8+x, 0, color.White)
		}
		g.Image, g.Delay = append(g.Image, p), append(g.Delay, 12)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	if n := countFrames(buf.Bytes()); n != 4 {
		t.Errorf("counted %d frames", n)
	}
	a, err := DecodeAnimation(buf.Bytes())
	if err != nil || len(a.Frames) != 4 {
		t.Fatalf("%d frames, %v", len(a.Frames), err)
	}
	if a.Delays[2] != 120*time.Millisecond {
		t.Errorf("delay %v", a.Delays[2])
	}
	if r, _, _, _ := a.Frames[3].At(25, 0).RGBA(); r>>8 != 255 {
		t.Error("the last frame is not drawn")
	}
	// A first frame that is sniffed is the GIF's size.
	if f, w, h, err := SniffImage(buf.Bytes()); f != "gif" || w != 32 || h != 16 || err != nil {
		t.Errorf("sniffed %s %dx%d %v", f, w, h, err)
	}
}

func TestAnAnimationOfTooManyFramesIsRefused(t *testing.T) {
	g := &gif.GIF{}
	p := image.NewPaletted(image.Rect(0, 0, 2, 2), palette.Plan9)
	for range MaxFrames + 1 {
		g.Image, g.Delay = append(g.Image, p), append(g.Delay, 1)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	if n := countFrames(buf.Bytes()); n != MaxFrames+1 {
		t.Errorf("counted %d frames without decoding, want %d", n, MaxFrames+1)
	}
	if _, err := DecodeAnimation(buf.Bytes()); err == nil {
		t.Error("played a GIF over MaxFrames")
	}
}
