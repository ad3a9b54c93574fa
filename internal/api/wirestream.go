package api

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/tidwall/gjson"
)

// formatError is an answer that arrived whole but is not what the spec
// says (bad JSON, bad base64): a bad response, not a network failure.
type formatError struct{ msg string }

func (e formatError) Error() string { return e.msg }

func isFormatError(err error) bool {
	var f formatError
	return errors.As(err, &f)
}

// endedOrBroken is the error for an answer that stopped early: clean EOF
// is a malformed answer, anything else is the connection.
func endedOrBroken(err error) error {
	if err == io.EOF {
		return formatError{"the answer ends inside an image"}
	}
	return err
}

// wireBufferSize is how much of an answer is read at a time: large enough
// that a decode step dwarfs its call, small enough to stay in cache. Tests
// make it tiny to put chunk edges everywhere.
var wireBufferSize = 256 << 10

// readWireStream reads an image answer from r, decoding each b64_json
// value while it arrives: the base64 text is never held whole, so the
// decoded image is the only payload-sized buffer. The rest of the answer
// becomes the same skeleton parseWire makes ("#0", "#1", … in place of
// the images), parsed and validated by gjson. sizeHint (the answer's
// Content-Length, or 0) sizes the first image's buffer.
func readWireStream(r io.Reader, sizeHint, limit int64) (*wireJSON, [][]byte, error) {
	br := bufio.NewReaderSize(io.LimitReader(r, limit+1), wireBufferSize)
	var skel []byte
	var images [][]byte
	var total int64
	for {
		chunk, err := br.ReadSlice('"')
		total += int64(len(chunk))
		skel = append(skel, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if total > limit {
			return nil, nil, formatError{fmt.Sprintf("the answer is over the %d-byte limit", limit)}
		}
		if !bytes.HasSuffix(skel, b64Key) || (len(skel) > len(b64Key) && skel[len(skel)-len(b64Key)-1] == '\\') {
			continue
		}
		// After the key: white space and the colon, then the value.
		for {
			c, err := br.ReadByte()
			if err != nil {
				return nil, nil, endedOrBroken(err)
			}
			skel = append(skel, c)
			if c == '"' {
				break
			}
			if c != ' ' && c != ':' && c != '\n' && c != '\r' && c != '\t' {
				goto next // null or another value: not an image string
			}
		}
		{
			img, n, err := decodeStreamed(br, sizeHint)
			if err != nil {
				return nil, nil, err
			}
			total += n
			sizeHint = 0 // later images: grow as needed
			skel = append(skel, '#')
			skel = strconv.AppendInt(skel, int64(len(images)), 10)
			skel = append(skel, '"')
			images = append(images, img)
		}
	next:
	}
	if total > limit {
		return nil, nil, formatError{fmt.Sprintf("the answer is over the %d-byte limit", limit)}
	}
	if !gjson.ValidBytes(skel) {
		return nil, nil, formatError{"the answer is not complete JSON"}
	}
	return &wireJSON{meta: gjson.ParseBytes(skel), decoded: images}, images, nil
}

// decodeStreamed decodes base64 from br up to the closing quote.
func decodeStreamed(br *bufio.Reader, sizeHint int64) ([]byte, int64, error) {
	out := make([]byte, 0, max(0, sizeHint*3/4))
	var carry [4]byte
	nc := 0
	var read int64
	// escaped is set when a chunk ended inside a "\/" escape.
	escaped := false
	for {
		chunk, err := br.ReadSlice('"')
		read += int64(len(chunk))
		done := err == nil
		if done {
			chunk = chunk[:len(chunk)-1]
		} else if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, read, endedOrBroken(err)
		}
		if escaped { // the last chunk ended in the backslash of "\/"
			if len(chunk) == 0 || chunk[0] != '/' {
				return nil, read, formatError{"b64_json is not valid base64: unexpected escape"}
			}
			escaped = false
		}
		if bytes.IndexByte(chunk, '\\') >= 0 { // "\/" escapes: rare
			chunk = bytes.ReplaceAll(chunk, []byte(`\/`), []byte(`/`))
			if !done && chunk[len(chunk)-1] == '\\' {
				// The buffer ended between the backslash and its slash.
				chunk, escaped = chunk[:len(chunk)-1], true
			}
			if bytes.IndexByte(chunk, '\\') >= 0 {
				return nil, read, formatError{"b64_json is not valid base64: unexpected escape"}
			}
		}
		// Complete the 4-byte group left from the last chunk.
		for nc > 0 && nc < 4 && len(chunk) > 0 {
			carry[nc] = chunk[0]
			nc++
			chunk = chunk[1:]
		}
		if nc == 4 {
			var err error
			if out, err = appendDecoded(out, carry[:]); err != nil {
				return nil, read, err
			}
			nc = 0
		}
		if nc > 0 { // the chunk ran out before the group was whole
			if done {
				return nil, read, formatError{"b64_json is not valid base64: truncated"}
			}
			continue
		}
		whole := len(chunk) / 4 * 4
		if done {
			whole = len(chunk)
		}
		var derr error
		if out, derr = appendDecoded(out, chunk[:whole]); derr != nil {
			return nil, read, derr
		}
		nc = copy(carry[:], chunk[whole:])
		if done {
			if nc != 0 {
				return nil, read, formatError{"b64_json is not valid base64: truncated"}
			}
			return out, read, nil
		}
	}
}

func appendDecoded(out, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return out, nil
	}
	need := base64.StdEncoding.DecodedLen(len(src))
	if cap(out)-len(out) < need {
		grown := make([]byte, len(out), max(2*cap(out), len(out)+need))
		copy(grown, out)
		out = grown
	}
	n, err := base64.StdEncoding.Decode(out[len(out):len(out)+need], src)
	if err != nil {
		return out, formatError{"b64_json is not valid base64: " + err.Error()}
	}
	return out[:len(out)+n], nil
}
