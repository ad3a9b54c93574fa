package api

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// sseReader reads the data of server-sent events, as the HTML standard
// defines them: "data:" lines joined by newlines, dispatched at a blank
// line; comments (":…") and the other fields are skipped. An image event
// carries megabytes of base64 on one line, so lines are not bounded by a
// scanner's token size but by the answer's byte limit.
type sseReader struct {
	r *bufio.Reader
	// left is how many more bytes the stream may send.
	left int64
	data []byte
	// err is why the stream stopped; nil at a clean end.
	err error
}

func newSSEReader(r io.Reader, limit int64) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(&lineEndings{r: r}, 64<<10), left: limit}
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
// off by the end of the stream is dropped: it may be incomplete.
func (s *sseReader) next() ([]byte, bool) {
	s.data = s.data[:0]
	for s.err == nil {
		line, err := s.line()
		if err != nil {
			if err != io.EOF {
				s.err = err
			}
			return nil, false
		}
		if len(line) == 0 {
			if len(s.data) == 0 {
				continue
			}
			return bytes.TrimSuffix(s.data, []byte("\n")), true
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if string(name) == "data" {
			value = bytes.TrimPrefix(value, []byte(" "))
			s.data = append(append(s.data, value...), '\n')
		}
	}
	return nil, false
}

// line reads one line without its ending (\n or \r\n).
func (s *sseReader) line() ([]byte, error) {
	var long []byte
	for {
		frag, err := s.r.ReadSlice('\n')
		s.left -= int64(len(frag))
		if s.left < 0 {
			return nil, fmt.Errorf("the stream is over the answer's byte limit")
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, frag...)
			continue
		}
		if err != nil && (err != io.EOF || len(frag)+len(long) == 0) {
			return nil, err
		}
		if long != nil {
			frag = append(long, frag...)
		}
		if err == io.EOF {
			// A last line with no newline is an event cut off.
			return nil, io.EOF
		}
		frag = bytes.TrimSuffix(frag[:len(frag)-1], []byte("\r"))
		return frag, nil
	}
}
