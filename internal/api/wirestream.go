package api

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"strconv"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
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
		return formatError{catalogue.T("the answer ends inside an image")}
	}
	return err
}

// wireBufferSize is how much of an answer is read at a time: large enough
// that a decode step dwarfs its call, small enough to stay in cache. Tests
// make it tiny to put chunk edges everywhere.
var wireBufferSize = 256 << 10

// MaxAnswerText bounds what an image answer holds besides its images'
// base64 (the skeleton gjson parses): a real answer's is a few kilobytes
// (a revised prompt each, usage), and one of two million tiny images
// for n=1 some 35 MB (its one kept image is still kept); one of endless
// small entries is refused here rather than held up to the whole
// answer's limit.
const MaxAnswerText = 64 << 20

// readWireStream reads an image answer from r, decoding each b64_json
// value while it arrives: the base64 text is never held whole, so the
// decoded image is the only payload-sized buffer. The rest of the answer
// becomes the same skeleton parseWire makes ("#0", "#1", … in place of
// the images), parsed and validated by gjson. sizeHint (the answer's
// Content-Length, or 0) sizes the first image's buffer. Only the first
// keep images are decoded: the base64 of any after them is read past and
// never held (a hostile answer of millions of tiny images for n=1).
func readWireStream(r io.Reader, sizeHint, limit int64, keep int) (w *wireJSON, images [][]byte, err error) {
	counted := &countingReader{r: io.LimitReader(r, limit+1)}
	defer func() {
		// Hitting the limit inside an image reads as the answer ending
		// there: it is the limit, and says so.
		var long *TooLongError
		if err != nil && counted.n > limit && !errors.As(err, &long) {
			w, images, err = nil, nil, &TooLongError{Limit: limit}
		}
	}()
	br := bufio.NewReaderSize(counted, wireBufferSize)
	var skel []byte
	var total int64
	for {
		chunk, err := br.ReadSlice('"')
		total += int64(len(chunk))
		skel = append(skel, chunk...)
		if len(skel) > MaxAnswerText {
			return nil, nil, &TooLongError{Limit: MaxAnswerText}
		}
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
			return nil, nil, formatError{catalogue.F("the answer is over the %d-byte limit", limit)}
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
		if len(images) >= keep {
			n, err := skipString(br)
			if err != nil {
				return nil, nil, err
			}
			total += n
			skel = append(skel, '-', '"') // "-": an image not kept
			continue
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
		return nil, nil, formatError{catalogue.F("the answer is over the %d-byte limit", limit)}
	}
	if !gjson.ValidBytes(skel) {
		return nil, nil, formatError{catalogue.T("the answer is not complete JSON")}
	}
	return &wireJSON{meta: gjson.ParseBytes(skel), decoded: images}, images, nil
}

// tooLongImage refuses one image's base64 longer than any image a
// service makes (MaxEventBytes, the same bound as one stream event),
// before its decoded bytes grow to match.
var tooLongImage = &TooLongError{Limit: MaxEventBytes, Image: true}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// skipString reads past a JSON string's text up to its closing quote
// (escapes included) and returns how many bytes it read.
func skipString(br *bufio.Reader) (int64, error) {
	var read int64
	escaped := false
	for {
		chunk, err := br.ReadSlice('"')
		read += int64(len(chunk))
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return read, endedOrBroken(err)
		}
		if err == nil {
			// The quote ends the string unless an odd run of
			// backslashes escapes it.
			body := chunk[:len(chunk)-1]
			n := 0
			for i := len(body) - 1; i >= 0 && body[i] == '\\'; i-- {
				n++
			}
			if escaped && len(body) == 0 {
				n++
			}
			if n%2 == 0 {
				return read, nil
			}
			escaped = false
			continue
		}
		escaped = len(chunk) > 0 && chunk[len(chunk)-1] == '\\'
	}
}

// decodeStreamed decodes base64 from br up to the closing quote. Most of
// an image decodes straight from the reader's buffer, whole 4-byte groups
// at a time, and the decoder itself finds the closing quote as the first
// byte it cannot decode: the text is not scanned for it first. A buffer
// the decoder stops in for any other reason (a "\/" escape, a bad byte, a
// quote out of step with the groups), or that ends in padding, goes to
// decodeEscaped from its start, which takes the rest of the image apart
// with care.
func decodeStreamed(br *bufio.Reader, sizeHint int64) ([]byte, int64, error) {
	out := make([]byte, 0, max(0, sizeHint*3/4))
	read := skipDataURL(br)
	for {
		if br.Buffered() < 4 {
			// Fill; a read error shows as a short buffer, and
			// decodeEscaped reports it.
			_, _ = br.Peek(br.Buffered() + 1)
		}
		chunk, _ := br.Peek(br.Buffered())
		whole := len(chunk) / 4 * 4
		if whole == 0 {
			break
		}
		out = room(out, base64.StdEncoding.DecodedLen(whole))
		n, err := base64.StdEncoding.Decode(out[len(out):cap(out)], chunk[:whole])
		if err == nil && n == whole/4*3 {
			out = out[:len(out)+n]
			_, _ = br.Discard(whole)
			read += int64(whole)
			if read > MaxEventBytes {
				return nil, read, tooLongImage
			}
			continue
		}
		if at, ok := err.(base64.CorruptInputError); ok && chunk[at] == '"' && n == groupsBefore(chunk, int(at)) {
			out = out[:len(out)+n]
			_, _ = br.Discard(int(at) + 1)
			return out, read + int64(at) + 1, nil
		}
		break
	}
	out, n, err := decodeEscaped(br, out)
	return out, read + n, err
}

// skipDataURL discards a data: URL's head ("data:image/png;base64,")
// where base64 was expected, as some gateways send it, and returns how
// many bytes it read.
func skipDataURL(br *bufio.Reader) int64 {
	head, _ := br.Peek(5)
	if string(head) != "data:" {
		return 0
	}
	head, _ = br.Peek(min(br.Size(), 256))
	i := bytes.Index(head, []byte(";base64,"))
	if i < 0 || bytes.IndexByte(head[:i], '"') >= 0 {
		return 0
	}
	n, _ := br.Discard(i + len(";base64,"))
	return int64(n)
}

// groupsBefore is how many bytes the base64 in text[:end] decodes to when
// it is whole 4-byte groups with no line breaks, or -1 when end is not on
// a group's edge. A decode that stopped at a quote and wrote exactly this
// many bytes read nothing but the image.
func groupsBefore(text []byte, end int) int {
	if end%4 != 0 {
		return -1
	}
	n := end / 4 * 3
	for i := end - 1; i >= 0 && i >= end-2 && text[i] == '='; i-- {
		n--
	}
	return n
}

// decodeEscaped decodes the rest of an image's base64 onto out, up to
// the closing quote, undoing "\/" escapes and dropping the "\r" and
// "\n" of base64 wrapped in lines, wherever the reader's buffer ends:
// between a backslash and its letter, or inside a 4-byte group.
func decodeEscaped(br *bufio.Reader, out []byte) ([]byte, int64, error) {
	var carry [4]byte
	nc := 0
	var read int64
	// escaped is set when a chunk ended inside a "\/" escape.
	escaped := false
	// closed is set once the text has ended in padding.
	closed := false
	for {
		chunk, err := br.ReadSlice('"')
		read += int64(len(chunk))
		if read > MaxEventBytes {
			return nil, read, tooLongImage
		}
		done := err == nil
		if done {
			chunk = chunk[:len(chunk)-1]
		} else if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, read, endedOrBroken(err)
		}
		if escaped { // the last chunk ended in an escape's backslash
			if len(chunk) == 0 {
				return nil, read, formatError{catalogue.T("b64_json is not valid base64: unexpected escape")}
			}
			switch chunk[0] {
			case '/':
				chunk[0] = '/'
			case 'r', 'n':
				chunk = chunk[1:]
			default:
				return nil, read, formatError{catalogue.T("b64_json is not valid base64: unexpected escape")}
			}
			escaped = false
		}
		if bytes.IndexByte(chunk, '\\') >= 0 { // escapes: rare
			chunk = unescapeBase64(chunk)
			if !done && len(chunk) > 0 && chunk[len(chunk)-1] == '\\' {
				// The buffer ended between the backslash and its letter.
				chunk, escaped = chunk[:len(chunk)-1], true
			}
			if bytes.IndexByte(chunk, '\\') >= 0 {
				return nil, read, formatError{catalogue.T("b64_json is not valid base64: unexpected escape")}
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
			if out, err = appendDecoded(out, carry[:], &closed); err != nil {
				return nil, read, err
			}
			nc = 0
		}
		if nc > 0 { // the chunk ran out before the group was whole
			if done {
				return nil, read, formatError{catalogue.T("b64_json is not valid base64: truncated")}
			}
			continue
		}
		whole := len(chunk) / 4 * 4
		if done {
			whole = len(chunk)
		}
		var derr error
		if out, derr = appendDecoded(out, chunk[:whole], &closed); derr != nil {
			return nil, read, derr
		}
		nc = copy(carry[:], chunk[whole:])
		if done {
			if nc != 0 {
				return nil, read, formatError{catalogue.T("b64_json is not valid base64: truncated")}
			}
			return out, read, nil
		}
	}
}

// unescapeBase64 undoes the JSON escapes base64 may hold: "\/" is a
// slash, "\r" and "\n" are the line breaks of wrapped base64, dropped.
// A trailing lone backslash is left for the caller.
func unescapeBase64(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		switch b[i+1] {
		case '/':
			out = append(out, '/')
			i++
		case 'r', 'n':
			i++
		default:
			out = append(out, b[i])
		}
	}
	return out
}

// appendDecoded decodes src onto out. Padding ends an image: closed is
// set when src ends short of whole groups, and text after that is refused
// (the decoder alone would take each buffer's groups as a fresh start).
func appendDecoded(out, src []byte, closed *bool) ([]byte, error) {
	if len(src) == 0 {
		return out, nil
	}
	if *closed {
		return out, formatError{catalogue.T("b64_json is not valid base64: it goes on after its end")}
	}
	need := base64.StdEncoding.DecodedLen(len(src))
	out = room(out, need)
	n, err := base64.StdEncoding.Decode(out[len(out):len(out)+need], src)
	if err != nil {
		return out, formatError{catalogue.F("b64_json is not valid base64: %v", err)}
	}
	*closed = n < len(src)/4*3
	return out[:len(out)+n], nil
}

// room grows out, when it must, so that need more bytes fit after its
// length.
func room(out []byte, need int) []byte {
	if cap(out)-len(out) >= need {
		return out
	}
	grown := make([]byte, len(out), max(2*cap(out), len(out)+need))
	copy(grown, out)
	return grown
}
