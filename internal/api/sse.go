package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
)

// sseReader reads the data of server-sent events, as the HTML standard
// defines them: "data:" lines joined by newlines, dispatched at a blank
// line; comments (":…") and the other fields are skipped. An image event
// carries megabytes of base64 on one line, so lines are not bounded by a
// scanner's token size but by the answer's byte limit.
type sseReader struct {
	r *bufio.Reader
	// left is how many more bytes the stream may send, of limit.
	left, limit int64
	data        []byte
	// err is why the stream stopped; nil at a clean end.
	err error
}

func newSSEReader(r io.Reader, limit int64) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(&lineEndings{r: r}, 64<<10), left: limit, limit: limit}
}

// lineEndings turns the three line endings the SSE standard allows (CRLF,
// LF and CR alone) into LF as the stream passes, so a server that ends
// its lines with CR alone is read, not taken for one endless line.
type lineEndings struct {
	r io.Reader
	// cr is set when the last byte passed on was a CR turned into LF: an
	// LF that follows it belongs to the same ending.
	cr bool
}

func (l *lineEndings) Read(p []byte) (int, error) {
	for {
		n, err := l.r.Read(p)
		out := 0
		for _, c := range p[:n] {
			switch {
			case c == '\n' && l.cr:
				l.cr = false
				continue
			case c == '\r':
				c, l.cr = '\n', true
			default:
				l.cr = false
			}
			p[out] = c
			out++
		}
		if out > 0 || err != nil {
			return out, err
		}
	}
}

// next returns the data of the next event, valid until the next call, or
// false at the end of the stream or on an error (in err). An event cut
// off by the end of the stream is dropped: it may be incomplete. An event
// of one long data line (an image's megabytes of base64) is returned in
// the buffer the line was read into, never copied again.
// event is the next event's data with its white space trimmed, empty
// ones skipped; every event, a keep-alive too, tells the idle watch that
// the service is still there.
func (s *sseReader) event(ctx context.Context) ([]byte, bool) {
	for {
		data, ok := s.next()
		if !ok {
			return nil, false
		}
		progressed(ctx)
		if data = bytes.TrimSpace(data); len(data) > 0 {
			return data, true
		}
	}
}

func (s *sseReader) next() ([]byte, bool) {
	s.data = s.data[:0]
	var single []byte // the event's only data line, when it owns its buffer
	for s.err == nil {
		line, owned, err := s.line()
		if err != nil {
			if err != io.EOF {
				s.err = err
			}
			return nil, false
		}
		if len(line) == 0 {
			if single != nil {
				return single, true
			}
			if len(s.data) == 0 {
				continue
			}
			return bytes.TrimSuffix(s.data, []byte("\n")), true
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if string(name) != "data" {
			continue
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		switch {
		case owned && single == nil && len(s.data) == 0:
			single = value
		case single != nil: // a second line: join them after all
			s.data = append(append(s.data, single...), '\n')
			single = nil
			fallthrough
		default:
			s.data = append(append(s.data, value...), '\n')
		}
	}
	return nil, false
}

// MaxEventBytes bounds one line of a stream: the largest image a service
// makes (3840x2160 as PNG, some 25 MB) is about 33 MB of base64; a line
// longer than this is no image, and is refused before it is held.
const MaxEventBytes = 64 << 20

// line reads one line without its ending. A line longer than the reader's
// buffer is gathered into a buffer of its own (owned), whose pieces are
// kept apart until the line's end and then copied once into one buffer
// of exactly its length: no doubling while it grows.
func (s *sseReader) line() ([]byte, bool, error) {
	var pieces [][]byte
	size := 0
	for {
		frag, err := s.r.ReadSlice('\n')
		s.left -= int64(len(frag))
		if s.left < 0 {
			return nil, false, &TooLongError{Limit: s.limit}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if size += len(frag); size > MaxEventBytes {
				return nil, false, &TooLongError{Limit: MaxEventBytes, Event: true}
			}
			pieces = append(pieces, bytes.Clone(frag))
			continue
		}
		if err != nil && (err != io.EOF || len(frag)+size == 0) {
			return nil, false, err
		}
		if err == io.EOF {
			// A last line with no newline is an event cut off.
			return nil, false, io.EOF
		}
		frag = frag[:len(frag)-1]
		if pieces == nil {
			return frag, false, nil
		}
		whole := make([]byte, 0, size+len(frag))
		for i, p := range pieces {
			whole = append(whole, p...)
			pieces[i] = nil // let each piece go as soon as it is copied
		}
		return append(whole, frag...), true, nil
	}
}
