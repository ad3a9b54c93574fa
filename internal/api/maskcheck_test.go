package api_test

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"easel/internal/api"
)

// A mask the service would refuse after the upload is refused before:
// without transparency, or not the first image's size.
func TestAMaskIsCheckedBeforeSending(t *testing.T) {
	enc := func(img image.Image) []byte {
		var buf bytes.Buffer
		png.Encode(&buf, img)
		return buf.Bytes()
	}
	first := api.InputImage{Name: "a.png", Data: enc(image.NewNRGBA(image.Rect(0, 0, 64, 32)))}
	req := func(mask []byte) api.EditRequest {
		return api.EditRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"},
			Images: []api.InputImage{first}, Mask: &api.InputImage{Name: "m.png", Data: mask}}
	}
	for name, c := range map[string]struct {
		mask []byte
		want string
	}{
		"good":       {enc(image.NewNRGBA(image.Rect(0, 0, 64, 32))), ""},
		"no alpha":   {enc(image.NewGray(image.Rect(0, 0, 64, 32))), "no transparency"},
		"other size": {enc(image.NewNRGBA(image.Rect(0, 0, 32, 32))), "mask is 32x32 but the first image is 64x32"},
		"not a PNG":  {[]byte("GIF89a........"), "not a PNG"},
	} {
		err := req(c.mask).Check(api.DefaultLimits)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
