package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
)

// wireJSON is an image answer with its base64 strings lifted out.
//
// An answer holds a few hundred bytes of fields around megabytes of
// base64. Parsing it as a whole costs a full scan of the image for every
// field looked up; instead the b64_json values are found with a fast
// byte search, replaced by short markers ("#0", "#1", …) in a small
// skeleton that gjson parses and validates, and each image is decoded
// straight from the answer's buffer. The answer and the image are the
// only payload-sized buffers.
type wireJSON struct {
	body  []byte
	spans [][2]int // the base64 text of each lifted value, in body
	meta  gjson.Result
	// decoded holds the images already decoded by readWireStream; then
	// body and spans are unused.
	decoded [][]byte
}

var b64Key = []byte(`"b64_json"`)

// parseWire lifts the b64_json values out of body and parses the rest.
func parseWire(body []byte) (*wireJSON, error) {
	w := &wireJSON{body: body}
	var skel []byte
	pos := 0
	for {
		i := bytes.Index(body[pos:], b64Key)
		if i < 0 {
			break
		}
		j := pos + i + len(b64Key)
		for j < len(body) && (body[j] == ' ' || body[j] == ':' || body[j] == '\n' || body[j] == '\t' || body[j] == '\r') {
			j++
		}
		if j >= len(body) {
			return nil, errors.New(catalogue.T("the answer ends inside an image"))
		}
		if body[j] != '"' { // null, or a key inside some other text: leave it
			skel = append(skel, body[pos:j]...)
			pos = j
			continue
		}
		start := j + 1
		end := bytes.IndexByte(body[start:], '"')
		if end < 0 {
			return nil, errors.New(catalogue.T("the answer ends inside an image"))
		}
		skel = append(skel, body[pos:start]...)
		skel = append(skel, '#')
		skel = strconv.AppendInt(skel, int64(len(w.spans)), 10)
		w.spans = append(w.spans, [2]int{start, start + end})
		pos = start + end
	}
	skel = append(skel, body[pos:]...)
	if !gjson.ValidBytes(skel) {
		return nil, errors.New(catalogue.T("the answer is not complete JSON"))
	}
	w.meta = gjson.ParseBytes(skel)
	return w, nil
}

// image decodes the b64_json value v (a marker in the skeleton).
func (w *wireJSON) image(v gjson.Result) ([]byte, error) {
	if v.Type != gjson.String {
		return nil, errors.New(catalogue.T("b64_json is not a string"))
	}
	s := v.String()
	if len(s) < 2 || s[0] != '#' {
		return nil, errors.New(catalogue.T("b64_json is not where it was expected"))
	}
	k, err := strconv.Atoi(s[1:])
	if w.decoded != nil {
		if err != nil || k < 0 || k >= len(w.decoded) {
			return nil, errors.New(catalogue.T("b64_json is not where it was expected"))
		}
		return w.decoded[k], nil
	}
	if err != nil || k < 0 || k >= len(w.spans) {
		return nil, errors.New(catalogue.T("b64_json is not where it was expected"))
	}
	src := w.body[w.spans[k][0]:w.spans[k][1]]
	if bytes.IndexByte(src, '\\') >= 0 { // "\/" escapes: rare, take the slow path
		var unq string
		quoted := append(append([]byte{'"'}, src...), '"')
		if err := json.Unmarshal(quoted, &unq); err != nil {
			return nil, fmt.Errorf(catalogue.T("b64_json is not a valid string: %w"), err)
		}
		src = []byte(unq)
	}
	src = DataURLPayload(src)
	dst := make([]byte, base64.StdEncoding.DecodedLen(len(src)))
	n, err := base64.StdEncoding.Decode(dst, src)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("b64_json is not valid base64: %w"), err)
	}
	return dst[:n], nil
}

// DataURLPayload is the base64 of a data: URL ("data:image/png;base64,
// …"), where some gateways put one in place of bare base64; anything else
// is returned as it is.
func DataURLPayload(b []byte) []byte {
	if !bytes.HasPrefix(b, []byte("data:")) {
		return b
	}
	head := b[:min(len(b), 256)]
	if i := bytes.Index(head, []byte(";base64,")); i >= 0 {
		return b[i+len(";base64,"):]
	}
	return b
}
