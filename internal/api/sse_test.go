package api

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readEvents(t *testing.T, r io.Reader, limit int64) ([]string, error) {
	t.Helper()
	s := newSSEReader(r, limit)
	var out []string
	for {
		data, ok := s.next()
		if !ok {
			return out, s.err
		}
		out = append(out, string(data))
	}
}

func TestSSEReaderEvents(t *testing.T) {
	long := strings.Repeat("A", 300<<10) // longer than the reader's buffer
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"two events", "data: a\n\ndata: b\n\n", []string{"a", "b"}},
		{"crlf endings", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}},
		{"lines joined", "data: a\ndata: b\n\n", []string{"a\nb"}},
		{"comments, event names and ids skipped", ": keep-alive\nevent: image_generation.completed\nid: 7\ndata: {}\n\n", []string{"{}"}},
		{"no space after the colon", "data:x\n\n", []string{"x"}},
		{"blank lines between events", "\n\n\ndata: a\n\n\n", []string{"a"}},
		{"a line longer than the buffer", "data: " + long + "\n\n", []string{long}},
		{"an event cut off at the end is dropped", "data: a\n\ndata: b\n", []string{"a"}},
		{"a last line with no newline is dropped", "data: a\n\ndata: b", []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time too: an event split across reads.
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				got, err := readEvents(t, r, 1<<30)
				if err != nil {
					t.Fatalf("err %v", err)
				}
				if strings.Join(got, "|") != strings.Join(tc.want, "|") {
					t.Fatalf("got %d events %.40q, want %d %.40q", len(got), got, len(tc.want), tc.want)
				}
			}
		})
	}
}

func TestSSEReaderFailures(t *testing.T) {
	cut := errors.New("connection reset")
	got, err := readEvents(t, io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(cut)), 1<<30)
	if !errors.Is(err, cut) || len(got) != 1 {
		t.Errorf("a broken connection: got %q, %v; want one event and the read error", got, err)
	}
	_, err = readEvents(t, strings.NewReader("data: "+strings.Repeat("A", 5000)+"\n\n"), 4096)
	var long *TooLongError
	if !errors.As(err, &long) || long.Limit != 4096 {
		t.Errorf("over the byte limit: %v", err)
	}
}
