package imageio

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"strings"
	"testing"
	"time"
)

// FuzzSVG hands the SVG reader and drawer any document: none may panic,
// hang past the drawing's deadline, or draw past its canvas bound. The
// seeds are the hostile files of #53 at a size a fuzzer can mutate.
func FuzzSVG(f *testing.F) {
	defer func(d time.Duration) { SVGDeadline = d }(SVGDeadline)
	SVGDeadline = 300 * time.Millisecond
	f.Add([]byte(plainSVG))
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><path d="M0 0` + strings.Repeat(" a9e6 9e6 0 1 1 1 0", 50) + `" fill="red"/></svg>`))
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><defs><linearGradient id="g">` +
		strings.Repeat(`<stop offset="0.5" stop-color="#123456"/>`, 40) + `</linearGradient></defs><rect width="64" height="64" fill="url(#g)"/></svg>`))
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat("<g>", 40) + strings.Repeat("</g>", 40) + `</svg>`))
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		img, err := DecodeBounded(bytes.NewReader(data), MaxPixels)
		if took := time.Since(start); took > SVGDeadline+5*time.Second {
			t.Fatalf("decoding took %v", took)
		}
		if err == nil && img.Bounds().Dx()*img.Bounds().Dy() > SVGSide*SVGSide*4 {
			t.Fatalf("drawn at %v", img.Bounds())
		}
	})
}

// FuzzGIF hands the animation reader any bytes: no panic, and never more
// frames or pixels than its bounds.
func FuzzGIF(f *testing.F) {
	var buf bytes.Buffer
	pal := color.Palette{color.Black, color.White}
	anim := &gif.GIF{}
	for i := range 3 {
		frame := image.NewPaletted(image.Rect(0, 0, 8, 8), pal)
		frame.SetColorIndex(i, i, 1)
		anim.Image, anim.Delay, anim.Disposal = append(anim.Image, frame), append(anim.Delay, 5), append(anim.Disposal, gif.DisposalPrevious)
	}
	if err := gif.EncodeAll(&buf, anim); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := DecodeAnimation(data)
		if err != nil {
			return
		}
		if len(a.Frames) > MaxFrames || len(a.Frames) != len(a.Delays) {
			t.Fatalf("%d frames, %d delays", len(a.Frames), len(a.Delays))
		}
	})
}
