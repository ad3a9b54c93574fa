package api

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseWireEdgeCases(t *testing.T) {
	data := []byte("\xff\xfe/any bytes?>")
	b64 := base64.StdEncoding.EncodeToString(data) // holds '/' and '+'
	escaped := strings.ReplaceAll(b64, "/", `\/`)
	for _, tc := range []struct {
		name, body string
		ok         bool
	}{
		{"plain", `{"data":[{"b64_json":"` + b64 + `"}]}`, true},
		{"escaped slashes", `{"data":[{"b64_json" : "` + escaped + `"}]}`, true},
		{"key inside text", `{"data":[{"revised_prompt":"say \"b64_json\": here","b64_json":"` + b64 + `"}]}`, true},
		{"truncated in image", `{"data":[{"b64_json":"` + b64[:4], false},
		{"truncated after", `{"data":[{"b64_json":"` + b64 + `"}`, false},
		{"not base64", `{"data":[{"b64_json":"@@@@"}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := parseWire([]byte(tc.body))
			if err == nil {
				var got []byte
				got, err = w.image(w.meta.Get("data.0.b64_json"))
				if err == nil && string(got) != string(data) {
					t.Fatalf("decoded %q", got)
				}
			}
			if (err == nil) != tc.ok {
				t.Errorf("err = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestReadWireStreamMatchesParseWire(t *testing.T) {
	small := []byte("\xff\xfe/any bytes?>")
	big := make([]byte, 700_001) // the base64 spans several 256 KB buffers, with a partial group at each edge
	for i := range big {
		big[i] = byte(i * 7 % 251)
	}
	for _, data := range [][]byte{small, big} {
		b64 := base64.StdEncoding.EncodeToString(data)
		escaped := strings.ReplaceAll(b64, "/", `\/`)
		for _, tc := range []struct {
			name, body string
			ok         bool
		}{
			{"plain", `{"created":1,"data":[{"b64_json":"` + b64 + `"}],"size":"1024x1024"}`, true},
			{"escaped slashes", `{"data":[{"b64_json" : "` + escaped + `"}]}`, true},
			{"key inside text", `{"data":[{"revised_prompt":"say \"b64_json\": here","b64_json":"` + b64 + `"}]}`, true},
			{"two images", `{"data":[{"b64_json":"` + b64 + `"},{"b64_json":"` + b64 + `"}]}`, true},
			{"null image", `{"data":[{"b64_json":null,"url":"x"}]}`, true},
			{"truncated in image", `{"data":[{"b64_json":"` + b64[:len(b64)/2], false},
			{"truncated after", `{"data":[{"b64_json":"` + b64 + `"}`, false},
			{"not base64", `{"data":[{"b64_json":"@@@@` + b64 + `"}]}`, false},
		} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, len(data)), func(t *testing.T) {
				w, _, err := readWireStream(iotest.HalfReader(strings.NewReader(tc.body)), int64(len(tc.body)), 1<<30, 1<<20)
				if err == nil && tc.name != "null image" {
					for i, item := range w.meta.Get("data").Array() {
						got, ierr := w.image(item.Get("b64_json"))
						if ierr != nil || !bytes.Equal(got, data) {
							t.Fatalf("image %d: %d bytes, err %v", i, len(got), ierr)
						}
					}
				}
				if (err == nil) != tc.ok {
					t.Errorf("err = %v, want ok=%v", err, tc.ok)
				}
				if err != nil && !isFormatError(err) {
					t.Errorf("a malformed answer reads as a network error: %v", err)
				}
			})
		}
	}
}

func TestReadWireStreamLimit(t *testing.T) {
	body := `{"data":[{"b64_json":"` + strings.Repeat("QUJD", 1000) + `"}]}`
	if _, _, err := readWireStream(strings.NewReader(body), 0, 100, 1<<20); err == nil {
		t.Error("an answer over the limit was accepted")
	}
}

// Gateways that escape every "/" as "\/" must decode wherever the reader's
// buffer ends: between the backslash and its slash too. Tiny buffers put
// an edge at every position.
func TestReadWireStreamEscapesAcrossChunkEdges(t *testing.T) {
	data := make([]byte, 3000)
	for i := range data {
		data[i] = byte(i * 131 % 256)
	}
	b64 := base64.StdEncoding.EncodeToString(data)
	escaped := strings.ReplaceAll(b64, "/", `\/`)
	if strings.Count(escaped, `\/`) < 20 {
		t.Fatal("the test data needs many slashes")
	}
	body := `{"data":[{"b64_json":"` + escaped + `"}]}`
	defer func(n int) { wireBufferSize = n }(wireBufferSize)
	for size := 16; size <= 48; size++ {
		wireBufferSize = size
		w, _, err := readWireStream(strings.NewReader(body), 0, 1<<30, 1<<20)
		if err != nil {
			t.Fatalf("buffer of %d bytes: %v", size, err)
		}
		got, err := w.image(w.meta.Get("data.0.b64_json"))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("buffer of %d bytes: %d bytes decoded, err %v", size, len(got), err)
		}
	}
	// Base64 wrapped in lines ("\r\n" escapes every 76 characters), as
	// some gateways send it, decodes across every edge too.
	var wrapped strings.Builder
	for rest := escaped; rest != ""; {
		n := min(76, len(rest))
		wrapped.WriteString(rest[:n])
		if rest = rest[n:]; rest != "" {
			wrapped.WriteString(`\r\n`)
		}
	}
	body = `{"data":[{"b64_json":"` + wrapped.String() + `"}]}`
	for size := 16; size <= 48; size++ {
		wireBufferSize = size
		w, _, err := readWireStream(strings.NewReader(body), 0, 1<<30, 1<<20)
		if err != nil {
			t.Fatalf("wrapped, buffer of %d bytes: %v", size, err)
		}
		if got, err := w.image(w.meta.Get("data.0.b64_json")); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("wrapped, buffer of %d bytes: %d bytes decoded, err %v", size, len(got), err)
		}
	}
	// A backslash that escapes anything else is still refused.
	bad := `{"data":[{"b64_json":"QUJD\tQUJD"}]}`
	if _, _, err := readWireStream(strings.NewReader(bad), 0, 1<<30, 1<<20); err == nil || !isFormatError(err) {
		t.Errorf("an escape other than \\/, \\r and \\n was accepted: %v", err)
	}
}

// The fast path lets the decoder find the closing quote. Wherever the
// reader's buffer ends — before the quote, on it, just after it — and
// whatever padding the text ends with, the image decodes whole, and an
// answer cut after its quote, or whose groups are broken, is still
// refused. (Line breaks are skipped, as encoding/base64 does.)
func TestReadWireStreamQuoteAtEveryChunkEdge(t *testing.T) {
	defer func(n int) { wireBufferSize = n }(wireBufferSize)
	for length := 90; length < 93; length++ { // "", "==" and "=" endings
		data := make([]byte, length)
		for i := range data {
			data[i] = byte(i*53 + 7)
		}
		b64 := base64.StdEncoding.EncodeToString(data)
		body := `{"data":[{"b64_json":"` + b64 + `"}],"size":"1024x1024"}`
		for size := 16; size <= 48; size++ {
			wireBufferSize = size
			w, _, err := readWireStream(strings.NewReader(body), 0, 1<<30, 1<<20)
			if err != nil {
				t.Fatalf("%d bytes, buffer of %d: %v", length, size, err)
			}
			got, err := w.image(w.meta.Get("data.0.b64_json"))
			if err != nil || !bytes.Equal(got, data) || w.meta.Get("size").String() != "1024x1024" {
				t.Fatalf("%d bytes, buffer of %d: %d bytes decoded, err %v", length, size, len(got), err)
			}
			for _, bad := range []string{
				`{"data":[{"b64_json":"` + b64 + `"`,                              // cut after the quote
				`{"data":[{"b64_json":"` + b64[:len(b64)-8] + "AB\nC" + `"}]}`,    // a group short by one
				`{"data":[{"b64_json":"` + b64[:len(b64)-4] + "AA==AAAA" + `"}]}`, // padding in the middle
			} {
				if _, _, err := readWireStream(strings.NewReader(bad), 0, 1<<30, 1<<20); err == nil {
					t.Fatalf("buffer of %d: accepted %q", size, bad[len(bad)-16:])
				}
			}
		}
	}
}
