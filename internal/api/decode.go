package api

import (
	"fmt"
	"io"
	"math"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
)

// readBody reads an answer whole, bounded by limit, into one buffer sized
// from Content-Length so it is not copied while it grows.
func readBody(r io.Reader, contentLength, limit int64) ([]byte, error) {
	if contentLength > limit {
		return nil, &TooLongError{Limit: limit, Said: contentLength}
	}
	if contentLength > 0 {
		// Its length is known: one buffer of exactly that size.
		buf := make([]byte, contentLength)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	// Of unknown length: read in chunks, never a doubling buffer (which
	// holds three times the answer at its last growth), and join them
	// once at the end; an answer over the limit is refused holding no
	// more than the limit.
	var chunks [][]byte
	var total int64
	size := 64 << 10
	for {
		chunk := make([]byte, size)
		n, err := io.ReadFull(r, chunk)
		if n > 0 {
			chunks = append(chunks, chunk[:n])
			total += int64(n)
			if total > limit {
				return nil, &TooLongError{Limit: limit}
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(size*2, 8<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// TooLongError is an answer longer than Easel reads for its kind: it was
// refused (at its Content-Length when it said one) rather than held.
type TooLongError struct {
	Limit int64
	// Said is the length the answer announced, 0 when it did not.
	Said int64
	// Event is set when one event of a stream was too long, Image when
	// one image of an answer was.
	Event, Image bool
}

func (e *TooLongError) Error() string {
	if e.Image {
		return catalogue.F("one image of the answer is over the %s Easel reads for an image", mb(e.Limit))
	}
	if e.Event {
		return catalogue.F("one event of the stream is over the %s Easel reads for it", mb(e.Limit))
	}
	if e.Said > 0 {
		return catalogue.F("the answer would be %s, over the %s Easel reads for it", mb(e.Said), mb(e.Limit))
	}
	return catalogue.F("the answer is over the %s Easel reads for it", mb(e.Limit))
}

// mb is a byte count in whole megabytes (or kilobytes, when small).
func mb(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d MB", n>>20)
}

func usageFrom(v gjson.Result) *Usage {
	if !v.Exists() {
		return nil
	}
	u := &Usage{}
	fields := []struct {
		dst   *int64
		names []string
	}{
		// Chat answers name them prompt_ and completion_tokens; a field
		// of either name counts, so an image answer's input_tokens of 0
		// never drops its output.
		{&u.InputTokens, []string{"input_tokens", "prompt_tokens"}},
		{&u.OutputTokens, []string{"output_tokens", "completion_tokens"}},
		{&u.TotalTokens, []string{"total_tokens"}},
		{&u.TextTokens, []string{"input_tokens_details.text_tokens"}},
		{&u.ImageTokens, []string{"input_tokens_details.image_tokens"}},
	}
	for _, f := range fields {
		for _, name := range f.names {
			r := v.Get(name)
			if !r.Exists() {
				continue
			}
			n, ok := tokenCount(r)
			if !ok {
				// A count no request makes (negative, fractional, beyond
				// MaxTokens, not a number): none of this usage is used.
				return &Usage{Implausible: true}
			}
			*f.dst = n
			break
		}
	}
	return u
}

// MaxTokens bounds any token count in one answer: the largest image
// request (ten 3840x2160 pictures at the highest quality) is well under a
// million tokens, a chat reply's context a few million.
const MaxTokens = 100_000_000

// tokenCount reads a token count: a whole number in [0, MaxTokens].
func tokenCount(r gjson.Result) (int64, bool) {
	if r.Type != gjson.Number {
		return 0, r.Type == gjson.Null
	}
	f := r.Float()
	if f < 0 || f > MaxTokens || f != math.Trunc(f) {
		return 0, false
	}
	return int64(f), true
}
