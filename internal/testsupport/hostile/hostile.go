// Package hostile is a service that answers as a broken gateway or an
// attacker's server would: more images than asked, previews without end,
// headers that claim billions of pixels, terminal escape sequences and
// bidi overrides in every string, lines ended by CR alone, empty streams.
// The tests of the client, the command line and the window run against
// it; each answer is chosen by the path's last element or the model name,
// so one server serves every case.
package hostile

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"strings"
	"time"
)

// Evil is text meant to take over a terminal or disguise itself: clear
// the screen, retitle the window, write the clipboard (OSC 52), a hidden
// hyperlink, BEL, backspace, NUL, and a right-to-left override.
const Evil = "\x1b[2J\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\\a\b\x00\u202eevil"

// Cases are the models that choose an answer.
const (
	ManyImages     = "many-images"     // 200 images in one JSON answer, whatever n was
	EndlessPreview = "endless-preview" // a stream of 500 previews, then the image
	CROnly         = "cr-only"         // a stream whose lines end with CR alone
	BrokenPreview  = "broken-preview"  // a preview that is not base64, then a good image
	HugeHeader     = "huge-header"     // a PNG whose header claims 60000x60000
	EvilError      = "evil-error"      // a 400 whose every field carries Evil and the key
	EmptyChat      = "empty-chat"      // a chat stream of [DONE] only
	ReasoningOnly  = "reasoning-only"  // a chat stream of reasoning_content only
	EvilChat       = "evil-chat"       // a chat reply with Evil in it
	KeyInPieces    = "key-in-pieces"   // a chat reply and its reasoning echoing the key, split across pieces
	// Paid images in odd but unambiguous shapes, which must be kept.
	JSONAsHTML    = "json-as-html"   // a valid JSON answer labelled text/html
	WrappedBase64 = "wrapped-base64" // b64_json wrapped at 76 columns (escaped newlines)
	DataURL       = "data-url"       // b64_json as a data: URL
	DataURLLink   = "data-url-link"  // url as a data: URL
	WrappedStream = "wrapped-stream" // a stream whose completed image is wrapped base64 in a data: URL
	// Stalls: a stream that never ends and never delivers.
	Trickle       = "trickle"         // a stream that sends one byte every 100 ms, forever
	KeepAliveOnly = "keep-alive-only" // a stream of keep-alive comments, forever
	// Undecodable: the bytes must be kept where the user is told.
	NotAnImage = "not-an-image" // b64_json that decodes to bytes no image format has
	// Numbers that would move money: a usage no request makes.
	NegativeUsage = "negative-usage" // output_tokens -1e15
	MaxIntUsage   = "max-int-usage"  // output_tokens 9223372036854775807
	HugeUsage     = "huge-usage"     // output_tokens 1e30
	ZeroInput     = "zero-input"     // input_tokens 0 beside real output tokens (a $0.17 answer)
	LongRevised   = "long-revised"   // a revised_prompt of 10 MB
	// Broken wire: the request arrived, the answer did not.
	ResetInHeaders = "reset-in-headers" // half a status line and header, then a TCP reset
	Garbage429     = "garbage-429"      // a 429 whose body is binary, with an unreadable Retry-After
)

// usageOf is the usage each money case reports.
var usageOf = map[string]string{
	NegativeUsage: `{"input_tokens":10,"output_tokens":-1e15,"total_tokens":10}`,
	MaxIntUsage:   `{"input_tokens":10,"output_tokens":9223372036854775807,"total_tokens":9223372036854775807}`,
	HugeUsage:     `{"input_tokens":10,"output_tokens":1e30,"total_tokens":1e30}`,
	ZeroInput:     `{"input_tokens":0,"output_tokens":4160,"total_tokens":4160}`,
}

// Server answers /v1/models, /v1/images/generations and
// /v1/chat/completions hostilely; Key is echoed back where a careless
// client would show it.
type Server struct {
	Key string
}

// TinyPNG is a valid 2x2 PNG.
func TinyPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// HugePNG is a PNG signature and an IHDR chunk (with its CRC) claiming
// w x h pixels, followed by no pixel data: a few bytes that a plain
// decode would turn into gigabytes.
func HugePNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func (s Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	model := modelOf(r)
	b64 := base64.StdEncoding.EncodeToString(TinyPNG())
	if s.serveChat(w, model) || serveBrokenWire(w, model) {
		return
	}
	switch {
	case strings.HasSuffix(r.URL.Path, "/models"):
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"data":[{"id":"gpt-image-1"},{"id":%s},{"id":%s}]}`, js("x"+Evil), js("gpt-"+s.Key))
	case model == EvilError:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req_\u202eevil_"+s.Key) // Go refuses ESC in a header; bidi and the key pass
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"message":%s,"code":%s,"param":%s,"type":%s}}`,
			js("bad "+Evil+" "+s.Key), js("code"+Evil), js("size"+Evil), js("invalid"+Evil))
	case model == ManyImages:
		w.Header().Set("Content-Type", "application/json")
		var items []string
		for range 200 {
			items = append(items, fmt.Sprintf(`{"b64_json":%s,"revised_prompt":%s}`, js(b64), js(Evil)))
		}
		fmt.Fprintf(w, `{"created":1700000000,"data":[%s]}`, strings.Join(items, ","))
	case usageOf[model] != "":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"b64_json":%s}],"usage":%s}`, js(b64), usageOf[model])
	case model == LongRevised:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"b64_json":%s,"revised_prompt":%s}]}`, js(b64), js(strings.Repeat("a", 10<<20)))
	case model == HugeHeader:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"b64_json":%s}]}`, js(base64.StdEncoding.EncodeToString(HugePNG(60000, 60000))))
	case model == EndlessPreview || model == CROnly || model == BrokenPreview:
		w.Header().Set("Content-Type", "text/event-stream")
		end := "\n"
		if model == CROnly {
			end = "\r"
		}
		event := func(data string) { fmt.Fprintf(w, "event: x%sdata: %s%s%s", end, data, end, end) }
		switch model {
		case EndlessPreview:
			for i := range 500 {
				event(fmt.Sprintf(`{"type":"image_generation.partial_image","partial_image_index":%d,"b64_json":%s}`, i, js(b64)))
			}
		case BrokenPreview:
			event(`{"type":"image_generation.partial_image","partial_image_index":0,"b64_json":"%%% not base64 %%%"}`)
		}
		event(fmt.Sprintf(`{"type":"image_generation.completed","created_at":1700000000,"b64_json":%s}`, js(b64)))
	case model == JSONAsHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"b64_json":%s}]}`, js(b64))
	case model == WrappedBase64:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"b64_json":%s}]}`, js(wrap(b64, 76)))
	case model == DataURL:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"b64_json":%s}]}`, js("data:image/png;base64,"+b64))
	case model == DataURLLink:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"url":%s}]}`, js("data:image/png;base64,"+b64))
	case model == WrappedStream:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", fmt.Sprintf(`{"type":"image_generation.completed","created_at":1700000000,"b64_json":%s}`, js("data:image/png;base64,"+wrap(b64, 76))))
	case model == NotAnImage:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"created":1700000000,"data":[{"b64_json":%s}]}`, js(base64.StdEncoding.EncodeToString([]byte("%PDF-1.7 not what was asked for, but paid for"))))
	case model == Trickle || model == KeepAliveOnly:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		line := []byte(`data: {"type":"image_generation.partial_image","b64_json":"` + b64 + `"}`)
		for i := 0; r.Context().Err() == nil; i++ {
			if model == Trickle {
				_, _ = w.Write(line[i%len(line) : i%len(line)+1])
			} else {
				_, _ = fmt.Fprint(w, ": keep-alive\n\n")
			}
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			select {
			case <-r.Context().Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	default:
		http.Error(w, "unknown case", http.StatusNotFound)
	}
}

// serveChat answers the chat cases, and reports whether model was one.
// serveBrokenWire answers the broken-wire cases, and reports whether
// model was one.
func serveBrokenWire(w http.ResponseWriter, model string) bool {
	switch model {
	case ResetInHeaders:
		resetInHeaders(w)
	case Garbage429:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "banana")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte("\x00\x01garbage!!\xff\xfe"))
	default:
		return false
	}
	return true
}

// resetInHeaders writes the start of an answer's headers and resets the
// connection: the request was read, so the service may be at work on it.
func resetInHeaders(w http.ResponseWriter) {
	c, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: appl")
	_ = buf.Flush()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}

func (s Server) serveChat(w http.ResponseWriter, model string) bool {
	switch {
	case model == EmptyChat:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{}}]}\n\ndata: null\n\ndata: [DONE]\n\n")
	case model == ReasoningOnly:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"thinking it over\"}}]}\n\n")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	case model == KeyInPieces:
		w.Header().Set("Content-Type", "text/event-stream")
		half := len(s.Key) / 2
		for _, piece := range []string{"your key is " + s.Key[:half], s.Key[half:] + " — keep it safe"} {
			fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"reasoning_content\":%s,\"content\":%s}}]}\n\n", js(piece), js(piece))
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			time.Sleep(120 * time.Millisecond) // a frame apart: each piece is written on its own
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	case model == EvilChat:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":%s}}]}\n\n", js("hello "+Evil+"\nworld"))
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	default:
		return false
	}
	return true
}

// wrap breaks s into lines of n characters, as MIME encoders do.
func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\r\n")
		s = s[n:]
	}
	b.WriteString(s)
	return b.String()
}

// js is s as a JSON string.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// modelOf reads the model from a JSON body without a JSON parser (the
// server must not depend on the client's code).
func modelOf(r *http.Request) string {
	if r.Body == nil {
		return ""
	}
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(r.Body)
	body := buf.String()
	i := strings.Index(body, `"model":"`)
	if i < 0 {
		return ""
	}
	rest := body[i+len(`"model":"`):]
	if j := strings.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return ""
}
