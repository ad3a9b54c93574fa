package api

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for DecodeConfig
	_ "image/png"
	"io"

	"github.com/tidwall/gjson"
	_ "golang.org/x/image/webp"
)

// readBody reads an answer whole, bounded by limit, into one buffer sized
// from Content-Length so it is not copied while it grows.
func readBody(r io.Reader, contentLength, limit int64) ([]byte, error) {
	if contentLength > limit {
		return nil, fmt.Errorf("the answer is %d bytes, over the %d-byte limit", contentLength, limit)
	}
	var buf bytes.Buffer
	if contentLength > 0 {
		buf.Grow(int(contentLength) + bytes.MinRead)
	}
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, fmt.Errorf("the answer is over the %d-byte limit", limit)
	}
	return buf.Bytes(), nil
}

// SniffImage checks that data is a PNG, JPEG or WebP image and reads its
// format and size without decoding the pixels.
func SniffImage(data []byte) (format string, w, h int, err error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", 0, 0, fmt.Errorf("the bytes are not a PNG, JPEG or WebP image")
	}
	return format, cfg.Width, cfg.Height, nil
}

func usageFrom(v gjson.Result) *Usage {
	if !v.Exists() {
		return nil
	}
	u := &Usage{
		InputTokens:  v.Get("input_tokens").Int(),
		OutputTokens: v.Get("output_tokens").Int(),
		TotalTokens:  v.Get("total_tokens").Int(),
		TextTokens:   v.Get("input_tokens_details.text_tokens").Int(),
		ImageTokens:  v.Get("input_tokens_details.image_tokens").Int(),
	}
	if u.InputTokens == 0 { // chat usage names
		u.InputTokens = v.Get("prompt_tokens").Int()
		u.OutputTokens = v.Get("completion_tokens").Int()
	}
	return u
}
