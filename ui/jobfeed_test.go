package ui

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"easel/internal/api"
	"easel/internal/jobs"
)

// A kept edit is compared with the user's picture: the padded upload
// cropped back to its frame, or the first image without the marks drawn
// on it (issue 40, item 6).
func TestAKeptEditIsComparedWithTheUsersPicture(t *testing.T) {
	enc := func(w, h int) []byte {
		var buf bytes.Buffer
		_ = png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, w, h)))
		return buf.Bytes()
	}
	padded := enc(1536, 1024)
	req := jobs.Request{Edit: &api.EditRequest{Images: []api.InputImage{{Data: padded}}}, Keep: &jobs.Keep{Frame: image.Rect(0, 356, 1536, 668)}}
	userPicture := func(req jobs.Request) []byte {
		b, _ := req.UserPicture()
		return b
	}
	c, err := png.DecodeConfig(bytes.NewReader(userPicture(req)))
	if err != nil || c.Width != 1536 || c.Height != 312 {
		t.Errorf("compared with %dx%d (%v), want the 1536x312 picture", c.Width, c.Height, err)
	}
	own := enc(10, 3)
	req.Keep = &jobs.Keep{First: own}
	if !bytes.Equal(userPicture(req), own) {
		t.Error("a marked edit is not compared with the picture without its marks")
	}
	req.Keep = nil
	if !bytes.Equal(userPicture(req), padded) {
		t.Error("an edit without keep is not compared with its first image")
	}
}
