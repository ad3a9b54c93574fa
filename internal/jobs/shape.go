package jobs

import (
	"bytes"
	"image"
	"path/filepath"
	"strings"

	"easel/internal/api"
	"easel/internal/imageio"
	"easel/internal/outpaint"
)

// PadFirst readies a masked edit that keeps its unmasked area for a
// size of another shape than its first image's, as the window and
// `easel edit --keep` both send it: the first image and its mask are
// padded to shape's proportions (outpaint.PadToShape, the padding
// protected) and keep.Frame is set to the picture's place in them, so
// each result is cropped back to the user's picture before its unmasked
// area is put back. It decodes the first image: call it off the UI
// goroutine.
func PadFirst(req *api.EditRequest, keep *Keep, shape image.Point) error {
	first, mask := req.Images[0], *req.Mask
	data, err := first.Bytes()
	if err != nil {
		return err
	}
	img, err := imageio.DecodeBounded(bytes.NewReader(data), imageio.MaxPixels)
	if err != nil {
		return err
	}
	m, err := imageio.DecodeBounded(bytes.NewReader(mask.Data), imageio.MaxPixels)
	if err != nil {
		return err
	}
	padded, paddedMask, frame := outpaint.PadToShape(img, m, shape)
	pd, err := imageio.EncodePNG(padded)
	if err != nil {
		return err
	}
	md, err := imageio.EncodePNG(paddedMask)
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(first.Name, filepath.Ext(first.Name)) + ".png"
	req.Images[0] = api.InputImage{Name: name, ContentType: "image/png", Data: pd}
	req.Mask = &api.InputImage{Name: mask.Name, ContentType: "image/png", Data: md}
	keep.Frame = frame
	return nil
}

// PadsTo is the shape a kept edit's first image must be padded to for
// size (zero: none): when it keeps its unmasked area, the size matches
// the first image (matching: "Match the first image", or --size match),
// and the model makes no size of the first image's shape.
func PadsTo(keep *Keep, matching bool, size string, first image.Point) (image.Point, bool) {
	w, h, sized := api.ParseSize(size)
	if keep == nil || !matching || !sized || first == (image.Point{}) || imageio.SameShape(image.Pt(w, h), first) {
		return image.Point{}, false
	}
	return image.Pt(w, h), true
}
