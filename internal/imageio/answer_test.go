package imageio

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"testing"
	"time"
)

// #53: a picture a service sent is decoded in this process only after
// the vetter drew it; one the vetter refuses is never decoded here, and
// its reason is the decode's error. A picture of Easel's own is not
// sent to the vetter again.
func TestAnAnswerIsVettedBeforeItIsDecodedHere(t *testing.T) {
	var buf bytes.Buffer
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	img.SetNRGBA(1, 1, color.NRGBA{R: 255, A: 255})
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("could not be drawn: the child ran out of memory")
	vetted := 0
	SetVetter(func(r io.Reader) ([]byte, error) { vetted++; return nil, refused })
	t.Cleanup(func() { SetVetter(nil) })

	before := Decodes()
	if _, err := AnswerOf(buf.Bytes()).Image(); !errors.Is(err, refused) {
		t.Errorf("an answer the vetter refused decoded as %v", err)
	}
	if Decodes() != before || vetted != 1 {
		t.Errorf("decoded here %d times, vetted %d times; want 0 and 1", Decodes()-before, vetted)
	}
	if _, err := PictureOf(buf.Bytes()).Image(); err != nil || vetted != 1 {
		t.Errorf("Easel's own picture: %v, vetted %d times", err, vetted)
	}
	SetVetter(func(r io.Reader) ([]byte, error) { vetted++; return nil, nil })
	if got, err := AnswerOf(buf.Bytes()).Image(); err != nil || got.Bounds().Dx() != 8 || vetted != 2 {
		t.Errorf("an answer the vetter drew: %v, %v", got, err)
	}
}

// The honesty figure reads the original's header while the kept
// composite decodes it: asking for a picture's bytes must not wait for
// a decode of its pixels (it did, and the two decodes ran one after the
// other).
func TestBytesDoNotWaitForADecode(t *testing.T) {
	p := PictureOf([]byte("bytes"))
	p.mu.Lock() // a decode under way
	defer p.mu.Unlock()
	got := make(chan []byte, 1)
	go func() {
		data, _ := p.Bytes()
		got <- data
	}()
	select {
	case data := <-got:
		if string(data) != "bytes" {
			t.Fatalf("Bytes gave %q", data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Bytes waited for the decode")
	}
}
