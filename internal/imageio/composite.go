package imageio

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
)

// KeepUnmasked puts the original's pixels back wherever the mask keeps
// them: services repaint the whole image, and what the user protected
// drifts (colours, text, faces). The mask is the one sent with the edit,
// transparent where the image may change; its partial alpha (a soft
// brush's edge) blends the two. The result is PNG. It reports false, and
// returns the result unchanged, when the sizes differ (the service chose
// another size) and there is nothing to match pixel for pixel.
func KeepUnmasked(result, original, mask []byte) ([]byte, bool, error) {
	res, err := DecodeBounded(bytes.NewReader(result), MaxPixels)
	if err != nil {
		return result, false, fmt.Errorf("the result: %w", err)
	}
	orig, err := DecodeBounded(bytes.NewReader(original), MaxPixels)
	if err != nil {
		return result, false, fmt.Errorf("the first input: %w", err)
	}
	m, err := DecodeBounded(bytes.NewReader(mask), MaxPixels)
	if err != nil {
		return result, false, fmt.Errorf("the mask: %w", err)
	}
	b := res.Bounds()
	if orig.Bounds().Size() != b.Size() || m.Bounds().Size() != b.Size() {
		return result, false, nil
	}
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), res, b.Min, draw.Src)
	o := image.NewNRGBA(out.Bounds())
	draw.Draw(o, o.Bounds(), orig, orig.Bounds().Min, draw.Src)
	mb := m.Bounds()
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			_, _, _, a := m.At(mb.Min.X+x, mb.Min.Y+y).RGBA()
			keep := a >> 8 // 255 where the mask protects the original
			if keep == 0 {
				continue
			}
			i := out.PixOffset(x, y)
			for c := 0; c < 4; c++ {
				r, k := uint32(out.Pix[i+c]), uint32(o.Pix[i+c])
				out.Pix[i+c] = uint8((r*(255-keep) + k*keep + 127) / 255)
			}
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, out); err != nil {
		return result, false, err
	}
	return buf.Bytes(), true, nil
}
