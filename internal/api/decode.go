package api

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/jpeg" // decoders for DecodeConfig
	_ "image/png"
	"io"
	"strings"
	"unsafe"

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

// viewString looks at b as a string without copying it. b must not change
// while the string is in use; the JSON answers it is used on never do.
func viewString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// viewBytes is the reverse view, for handing a substring to a decoder.
func viewBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// decodeB64 decodes a JSON string value (with its quotes) holding base64.
// The common case, a string with no escapes, decodes straight from the
// answer's buffer into the result: the answer and the image are the only
// two copies alive.
func decodeB64(v gjson.Result) ([]byte, error) {
	raw := v.Raw
	if len(raw) < 2 || raw[0] != '"' {
		return nil, fmt.Errorf("b64_json is not a string")
	}
	src := raw[1 : len(raw)-1]
	if strings.IndexByte(src, '\\') >= 0 { // "\/" escapes: rare, take the slow path
		src = v.String()
	}
	dst := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
	n, err := base64.StdEncoding.Decode(dst, viewBytes(src))
	if err != nil {
		return nil, fmt.Errorf("b64_json is not valid base64: %w", err)
	}
	return dst[:n], nil
}

// sniffImage checks that data is a PNG, JPEG or WebP image and reads its
// format and size without decoding the pixels.
func sniffImage(data []byte) (format string, w, h int, err error) {
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
