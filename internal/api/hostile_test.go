package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"easel/internal/testsupport/hostile"
)

const hostileKey = "sk-hostile-key-0123456789abcdef"

func hostileClient(t *testing.T) *Client {
	t.Helper()
	ts := httptest.NewServer(hostile.Server{Key: hostileKey})
	t.Cleanup(ts.Close)
	return New(Config{BaseURL: ts.URL + "/v1", APIKey: hostileKey})
}

// dirty reports what in s could drive a terminal or disguise text, or
// the key.
func dirty(s string) string {
	for _, r := range s {
		switch {
		case r == 0x1b || r == 0x07 || r == 0x08 || r == 0 || r == 0x9b || r == 0x9d:
			return "a control character"
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			return "a bidi control"
		}
	}
	if strings.Contains(s, hostileKey[:12]) {
		return "the key"
	}
	return ""
}

func hostileGen(model string, n, previews int) GenerateRequest {
	return GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: model, Size: "1024x1024", N: n,
		Stream: previews > 0, PartialImages: previews}}
}

// An answer with 200 images for n=1 keeps one, says how many it dropped,
// and the revised prompt it kept is clean.
func TestAnAnswerCannotMakeMoreImagesThanAsked(t *testing.T) {
	c := hostileClient(t)
	res, err := c.Generate(context.Background(), hostileGen(hostile.ManyImages, 1, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 1 || res.Dropped != 199 {
		t.Errorf("%d images kept, %d dropped; want 1 and 199", len(res.Images), res.Dropped)
	}
	if d := dirty(res.Images[0].RevisedPrompt); d != "" {
		t.Errorf("the revised prompt holds %s: %q", d, res.Images[0].RevisedPrompt)
	}
}

// An endless preview stream gives no more previews than asked for; a
// broken preview does not fail a job whose image arrived; a stream whose
// lines end with CR alone is read.
func TestStreamsCannotFloodOrBreakAJob(t *testing.T) {
	c := hostileClient(t)
	for _, tc := range []struct {
		model              string
		previews, wantSeen int
	}{
		{hostile.EndlessPreview, 2, 2},
		{hostile.BrokenPreview, 1, 0},
		{hostile.CROnly, 1, 0},
	} {
		seen := 0
		res, err := c.Generate(context.Background(), hostileGen(tc.model, 1, tc.previews), func(Partial) { seen++ })
		if err != nil {
			t.Errorf("%s: %v", tc.model, err)
			continue
		}
		if len(res.Images) != 1 || seen != tc.wantSeen {
			t.Errorf("%s: %d images and %d previews, want 1 and %d", tc.model, len(res.Images), seen, tc.wantSeen)
		}
	}
}

// An image whose header claims 60000x60000 pixels is refused, in words,
// before anything decodes it.
func TestAHugeHeaderIsRefusedBeforeDecoding(t *testing.T) {
	c := hostileClient(t)
	_, err := c.Generate(context.Background(), hostileGen(hostile.HugeHeader, 1, 0), nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBadResponse || !strings.Contains(e.Message, "60000x60000") {
		t.Errorf("got %v, want an unusable answer that names the size", err)
	}
}

// Every string of an error from the service reaches the user cleaned of
// terminal controls and bidi overrides, and without the key.
func TestAServiceErrorIsCleanedEverywhere(t *testing.T) {
	c := hostileClient(t)
	_, err := c.Generate(context.Background(), hostileGen(hostile.EvilError, 1, 0), nil)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v", err)
	}
	for name, s := range map[string]string{"message": e.Message, "code": e.Code, "param": e.Param, "type": e.Type,
		"request id": e.RequestID, "hint": e.Hint, "error": e.Error()} {
		if d := dirty(s); d != "" {
			t.Errorf("the %s holds %s: %q", name, d, s)
		}
	}
	if !strings.Contains(e.Message, "bad") || !strings.Contains(e.Message, "evil") {
		t.Errorf("the message lost its text: %q", e.Message)
	}
}

// Model names are cleaned and never carry the key.
func TestModelNamesAreCleaned(t *testing.T) {
	c := hostileClient(t)
	ms, err := c.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if d := dirty(m.ID); d != "" {
			t.Errorf("model %q holds %s", m.ID, d)
		}
	}
}

// A chat stream with nothing in it is an error; a reply of reasoning
// alone is a reply; a reply's escape sequences are removed and its text
// kept, as it streams and at the end.
func TestChatStreamsAreReadHonestly(t *testing.T) {
	c := hostileClient(t)
	chat := func(model string, onDelta func(string), onReasoning func(string)) (*ChatResult, error) {
		return c.Chat(context.Background(), ChatRequest{Model: model, Stream: true, OnReasoning: onReasoning,
			Messages: []Message{{Role: RoleUser, Content: "hi"}}}, onDelta)
	}
	if _, err := chat(hostile.EmptyChat, nil, nil); err == nil {
		t.Error("an empty stream was taken for an empty reply")
	}
	// Reasoning and no reply is kept (as it streamed, and at the end)
	// and said as a failure: there is nothing to print or use.
	var thought string
	res, err := chat(hostile.ReasoningOnly, nil, func(s string) { thought += s })
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBadResponse || res.Reasoning != "thinking it over" || thought != "thinking it over" || res.Content != "" {
		t.Errorf("reasoning only: %+v, %v, streamed %q", res, err, thought)
	}
	var shown string
	res, err = chat(hostile.EvilChat, func(s string) { shown += s }, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"streamed": shown, "final": res.Content} {
		if d := dirty(s); d != "" {
			t.Errorf("the %s reply holds %s: %q", name, d, s)
		}
		if !strings.HasPrefix(s, "hello ") || !strings.HasSuffix(s, "evil\nworld") {
			t.Errorf("the %s reply lost its text: %q", name, s)
		}
	}
}

// Clean keeps ordinary text, newlines only where asked, and removes whole
// escape sequences rather than leaving their arguments behind.
func TestClean(t *testing.T) {
	for _, c := range []struct {
		in        string
		multiline bool
		want      string
	}{
		{"plain text", false, "plain text"},
		{"Étude n°2 — 東京", false, "Étude n°2 — 東京"},
		{"two\nlines\tand tab", true, "two\nlines\tand tab"},
		{"two\nlines", false, "two lines"},
		{"\x1b[31mred\x1b[0m", false, "red"},
		{"a\x1b]0;title\x07b", false, "ab"},
		{"a\x1b]52;c;ZXZpbA==\x1b\\b", false, "ab"},
		{"\u202egnp.exe", false, "gnp.exe"},
		{"bell\a back\b nul\x00", false, "bell back nul"},
		{"bad \xff utf8", false, "bad \uFFFD utf8"},
		{"cut \x1b", false, "cut "},
	} {
		if got := Clean(c.in, c.multiline); got != c.want {
			t.Errorf("Clean(%q, %v) = %q, want %q", c.in, c.multiline, got, c.want)
		}
	}
}

// Each failure says what it is: an answer refused at its length names
// the limit (not a broken connection), a web page is called one, a long
// error is cut cleanly to its message, and an absurd wait reads "later".
func TestFailuresSayWhatHappened(t *testing.T) {
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			w.Header().Set("Content-Length", strconv.Itoa(2<<30))
			w.WriteHeader(http.StatusOK)
			w.Write([]byte(`{"data":[`)) // and then nothing like 2 GB
		case "/v1/chat/completions":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body>Please log in</body></html>"))
		case "/v1/images/generations":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Retry-After", "999999999")
			if r.Header.Get("X-Case") == "long" {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":{"message":"` + strings.Repeat("E", 100<<10) + `"}}`))
				return
			}
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`))
		}
	}))
	t.Cleanup(huge.Close)
	c := New(Config{BaseURL: huge.URL + "/v1"})
	ctx := context.Background()

	_, err := c.Models(ctx)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindBadResponse || !strings.Contains(e.Message, "over the 32 MB") {
		t.Errorf("a 2 GB model list: %v", err)
	}
	_, err = c.Chat(ctx, ChatRequest{Model: "m", Messages: []Message{{Role: RoleUser, Content: "hi"}}}, nil)
	if !errors.As(err, &e) || !strings.Contains(e.Message, "web page") || !strings.Contains(e.Hint, "base URL") {
		t.Errorf("a web page: %v", err)
	}
	_, err = c.Generate(ctx, GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}, nil)
	if !errors.As(err, &e) || e.Kind != KindRateLimited || strings.Contains(e.Hint, "wait 2") || !strings.Contains(e.Hint, "later") {
		t.Errorf("Retry-After of 31 years: hint %q", e.Hint)
	}
	long := New(Config{BaseURL: huge.URL + "/v1", HTTPClient: &http.Client{Transport: headerTransport{"X-Case", "long"}}})
	_, err = long.Generate(ctx, GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}, nil)
	if !errors.As(err, &e) || strings.Contains(e.Message, `{"error"`) || !strings.Contains(e.Message, "cut here") || len(e.Message) > 400 {
		t.Errorf("a 100 KB error: %q", e.Message)
	}
}

// headerTransport adds one header to every request.
type headerTransport struct{ k, v string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.k, h.v)
	return http.DefaultTransport.RoundTrip(r)
}

// An image link that stalls reads as a link that did not arrive in time,
// not as an unusable answer.
func TestAStalledImageLinkSaysSo(t *testing.T) {
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow.png" {
			w.Header().Set("Content-Length", "100000")
			w.Write([]byte("\x89PNG"))
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"created":1700000000,"data":[{"url":"` + ts.URL + `/slow.png"}]}`))
	}))
	t.Cleanup(ts.Close)
	c := New(Config{BaseURL: ts.URL + "/v1", ImageTimeout: 300 * time.Millisecond})
	_, err := c.Generate(context.Background(), GenerateRequest{Prompt: "x", ImageOptions: ImageOptions{Model: "dall-e-3", Size: "1024x1024"}}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindTimeout || !strings.Contains(e.Message, "did not arrive in time") {
		t.Errorf("a stalled link: %v", err)
	}
}

// A paid image in an odd but unambiguous shape is kept: JSON labelled
// as a web page, base64 wrapped in lines, a data: URL in b64_json or in
// url, and all of it in a stream.
func TestPaidImagesInOddShapesAreKept(t *testing.T) {
	c := hostileClient(t)
	for _, model := range []string{hostile.JSONAsHTML, hostile.WrappedBase64, hostile.DataURL, hostile.DataURLLink, hostile.WrappedStream} {
		previews := 0
		if model == hostile.WrappedStream {
			previews = 1
		}
		req := hostileGen(model, 1, previews)
		res, err := c.Generate(context.Background(), req, nil)
		if err != nil {
			t.Errorf("%s: %v", model, err)
			continue
		}
		if len(res.Images) != 1 || res.Images[0].Width != 2 || res.Images[0].Format != "png" {
			t.Errorf("%s: images %+v", model, res.Images)
		}
	}
}

// Bytes that are no image are not thrown away: they ride with the error.
func TestUndecodableBytesRideWithTheError(t *testing.T) {
	c := hostileClient(t)
	_, err := c.Generate(context.Background(), hostileGen(hostile.NotAnImage, 1, 0), nil)
	var ue *UndecodedError
	if !errors.As(err, &ue) || len(ue.Images) != 1 || !bytes.HasPrefix(ue.Images[0].Data, []byte("%PDF")) {
		t.Fatalf("error %v: the bytes are not with it", err)
	}
}

// A stream that trickles a byte at a time, or sends keep-alive comments
// alone, ends at the idle deadline, not the whole request's, and says
// what it was.
func TestAStalledStreamEndsAtTheIdleDeadline(t *testing.T) {
	ts := httptest.NewServer(hostile.Server{Key: hostileKey})
	defer ts.Close()
	c := New(Config{BaseURL: ts.URL + "/v1", APIKey: hostileKey, IdleTimeout: 400 * time.Millisecond})
	for _, model := range []string{hostile.Trickle, hostile.KeepAliveOnly} {
		start := time.Now()
		_, err := c.Generate(context.Background(), hostileGen(model, 1, 1), nil)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindTimeout || !strings.Contains(e.Message, "stopped sending") || !strings.Contains(e.Hint, "charged") {
			t.Errorf("%s: %v", model, err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: took %s", model, took)
		}
	}
}

// Invisible characters are taken out of the service's words (they hide
// a word's true spelling), emoji joined by a joiner stay whole, and the
// key spelled out with separators between its characters is redacted.
func TestInvisiblesAndASpreadKeyAreCleaned(t *testing.T) {
	for in, want := range map[string]string{
		"gpt\u200b-image\u2060-1\ufeff": "gpt-image-1",
		"soft\u00adhyphen":              "softhyphen",
		"coder 👩\u200d💻 here":           "coder 👩\u200d💻 here",
	} {
		if got := Clean(in, false); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
	spread := strings.Join(strings.Split(hostileKey, ""), " ")
	for _, said := range []string{"your key: " + spread + " ok", "key=" + strings.Join(strings.Split(hostileKey, ""), "\u200b"), "k " + strings.Join(strings.Split(hostileKey, ""), "-.")} {
		got := Clean(Redact(said, hostileKey), false)
		if d := dirty(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(got, " ", ""), "-", ""), ".", "")); d != "" || !strings.Contains(got, "[key]") {
			t.Errorf("%q came out as %q (%s)", said, got, d)
		}
	}
	if got := Redact("a perfectly ordinary sentence about keys", hostileKey); got != "a perfectly ordinary sentence about keys" {
		t.Errorf("an ordinary sentence became %q", got)
	}
}
