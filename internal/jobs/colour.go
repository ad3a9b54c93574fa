package jobs

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/colour"
	"easel/internal/imageio"
)

// InSRGB converts each of an edit's images that declares a colour space
// other than sRGB (an Adobe RGB or Display P3 photograph) to sRGB, the
// only space the service reads: sent as it is, its numbers would be
// taken as sRGB and every colour would shift. The window and `easel
// edit` both call it before padding and marks. When the first image is
// converted and keep asks for its unmasked area, keep.First becomes the
// user's file, so the kept copy is made in its space, its pixels
// unchanged (imageio.Kept). The notes say what was converted, for the
// card and the command line. It decodes what it converts: call it off
// the UI goroutine.
func InSRGB(req *api.EditRequest, keep *Keep) (notes []string, err error) {
	for i := range req.Images {
		in := &req.Images[i]
		space, err := inputSpace(*in)
		if err != nil {
			return notes, err
		}
		if space == nil {
			continue
		}
		data, err := in.Bytes()
		if err != nil {
			return notes, err
		}
		img, err := imageio.DecodeBounded(bytes.NewReader(data), imageio.MaxPixels)
		if err != nil {
			return notes, fmt.Errorf("%s: %w", in.Name, err)
		}
		converted, err := space.ToSRGB(img)
		if err != nil {
			return notes, fmt.Errorf(catalogue.T("%s could not be converted from %s to sRGB: %w"), in.Name, space.Label(), err)
		}
		encoded, err := imageio.EncodePNG(converted)
		if err != nil {
			return notes, err
		}
		if i == 0 && keep != nil && keep.First == nil {
			keep.First = data
		}
		notes = append(notes, catalogue.F("%s was converted from %s to sRGB, the colours the service reads", in.Name, space.Label()))
		name := strings.TrimSuffix(in.Name, filepath.Ext(in.Name)) + ".png"
		*in = api.InputImage{Name: name, ContentType: "image/png", Data: encoded}
	}
	return notes, nil
}

// inputSpace is the colour space in declares (imageio.SpaceIn), read
// from its head.
func inputSpace(in api.InputImage) (*colour.Space, error) {
	if in.Data != nil || in.Path == "" {
		return imageio.SpaceOf(in.Data), nil
	}
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return imageio.SpaceIn(rc), nil
}
