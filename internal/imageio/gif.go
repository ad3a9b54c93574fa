package imageio

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	"image/gif"
	"time"

	"easel/internal/catalogue"
)

// Animation is a GIF's frames as they show, each laid over the ones
// before as the file's disposal says, and how long each shows.
type Animation struct {
	Frames []*image.NRGBA
	Delays []time.Duration
}

// MaxFrames bounds the frames of an animation Easel plays; its frames
// together are bounded by MaxPixels as one image is.
const MaxFrames = 256

// DecodeAnimation reads every frame of a GIF, within MaxFrames and
// MaxPixels in all (a small file can claim thousands of large frames).
func DecodeAnimation(data []byte) (Animation, error) {
	cfg, err := gif.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Animation{}, err
	}
	if err := CheckPixels(cfg.Width, cfg.Height); err != nil {
		return Animation{}, err
	}
	// Counted before anything is decoded: the standard decoder decodes
	// every frame at once, and a few kilobytes can hold thousands.
	frames := countFrames(data)
	if frames > MaxFrames || int64(frames)*int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return Animation{}, errors.New(catalogue.F("the GIF has %d frames of %dx%d, more than Easel plays", frames, cfg.Width, cfg.Height))
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		return Animation{}, err
	}
	if len(g.Image) == 0 {
		return Animation{}, errors.New(catalogue.T("the GIF has no frames"))
	}
	canvas := image.NewNRGBA(image.Rect(0, 0, cfg.Width, cfg.Height))
	var a Animation
	for i, f := range g.Image {
		before := canvas
		if i < len(g.Disposal) && g.Disposal[i] == gif.DisposalPrevious {
			before = clone(canvas)
		}
		draw.Draw(canvas, f.Bounds(), f, f.Bounds().Min, draw.Over)
		a.Frames = append(a.Frames, clone(canvas))
		delay := 100 * time.Millisecond
		if i < len(g.Delay) && g.Delay[i] > 0 {
			delay = time.Duration(g.Delay[i]) * 10 * time.Millisecond
		}
		a.Delays = append(a.Delays, delay)
		if i < len(g.Disposal) {
			switch g.Disposal[i] {
			case gif.DisposalBackground:
				draw.Draw(canvas, f.Bounds(), image.Transparent, image.Point{}, draw.Src)
			case gif.DisposalPrevious:
				canvas = before
			}
		}
	}
	return a, nil
}

func clone(m *image.NRGBA) *image.NRGBA {
	c := image.NewNRGBA(m.Rect)
	copy(c.Pix, m.Pix)
	return c
}

// countFrames counts a GIF's image descriptors by walking its blocks,
// without decoding any: the block layout is GIF89a's (header, screen
// descriptor, colour table, then extensions, images and the trailer).
// A file cut short counts what it holds.
func countFrames(data []byte) int {
	const header = 13
	if len(data) < header {
		return 0
	}
	i := header
	if packed := data[10]; packed&0x80 != 0 {
		i += 3 << ((packed & 7) + 1)
	}
	// skip passes the sub-blocks from i, ending after their terminator.
	skip := func(i int) int {
		for i < len(data) {
			n := int(data[i])
			i++
			if n == 0 {
				return i
			}
			i += n
		}
		return i
	}
	frames := 0
	for i < len(data) {
		switch data[i] {
		case 0x21: // an extension: its label, then sub-blocks
			i = skip(i + 2)
		case 0x2C: // an image: descriptor, local table, LZW size, data
			if i+10 > len(data) {
				return frames
			}
			frames++
			if packed := data[i+9]; packed&0x80 != 0 {
				i += 3 << ((packed & 7) + 1)
			}
			i = skip(i + 11)
		default: // the trailer, or bytes no decoder would read on
			return frames
		}
	}
	return frames
}
