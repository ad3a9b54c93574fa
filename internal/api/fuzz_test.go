package api

import (
	"bytes"
	"encoding/base64"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"easel/internal/testsupport/hostile"
)

// The fuzz tests read what a service sends (the SSE reader, the
// streaming base64 decoder, the failure classifier) and build what Easel
// sends (the multipart writer). Their seed corpora, the hostile server's
// answers among them, run with every `go test`; `make fuzz` runs each
// target for a minute.

// hostileAnswer is the hostile server's whole answer for model: the
// finite cases only (the stalls never end).
func hostileAnswer(model string) (status int, header http.Header, body []byte) {
	req := httptest.NewRequest(http.MethodPost, "/v1/images/generations", strings.NewReader(`{"model":"`+model+`"}`))
	rec := httptest.NewRecorder()
	hostile.Server{Key: fuzzKey}.ServeHTTP(rec, req)
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

const fuzzKey = "sk-fuzz-0123456789abcdef"

var hostileStreams = []string{hostile.EndlessPreview, hostile.CROnly, hostile.BrokenPreview, hostile.WrappedStream,
	hostile.EmptyChat, hostile.ReasoningOnly, hostile.EvilChat}

var hostileJSON = []string{hostile.ManyImages, hostile.HugeHeader, hostile.JSONAsHTML, hostile.WrappedBase64,
	hostile.DataURL, hostile.DataURLLink, hostile.NotAnImage}

// FuzzSSEReader: whatever a stream holds, the reader ends, never hands
// back more than the stream's limit, and never an event that held a line
// ending (the three endings are each a line's end).
func FuzzSSEReader(f *testing.F) {
	for _, m := range hostileStreams {
		_, _, body := hostileAnswer(m)
		f.Add(body, uint16(len(body)))
	}
	f.Add([]byte("data: a\r\rdata: b\r\n\r\ndata:c\ndata:d\n\n: keep-alive\n\n"), uint16(0))
	f.Add([]byte("data: cut off"), uint16(4))
	f.Fuzz(func(t *testing.T, stream []byte, limit uint16) {
		lim := int64(limit) + 1
		s := newSSEReader(iotest.HalfReader(bytes.NewReader(stream)), lim)
		var total int64
		for events := 0; ; events++ {
			data, ok := s.next()
			if !ok {
				break
			}
			if events > len(stream) {
				t.Fatalf("%d events from %d bytes", events, len(stream))
			}
			total += int64(len(data))
			if total > lim || total > int64(len(stream)) {
				t.Fatalf("%d bytes of events from %d bytes under a limit of %d", total, len(stream), lim)
			}
			if bytes.IndexByte(data, '\r') >= 0 {
				t.Fatalf("an event keeps a CR: %q", data)
			}
		}
	})
}

// FuzzWireStream: the streaming decoder and the whole-body parser agree
// on any body: where both take it, every image is the same bytes.
func FuzzWireStream(f *testing.F) {
	for _, m := range hostileJSON {
		_, _, body := hostileAnswer(m)
		if len(body) < 1<<20 {
			f.Add(body)
		}
	}
	f.Add([]byte(`{"data":[{"b64_json":"` + base64.StdEncoding.EncodeToString([]byte("\xff\xfe/any")) + `"}]}`))
	f.Add([]byte(`{"data":[{"b64_json" : "QU\/JD","revised_prompt":"say \"b64_json\": here"},{"b64_json":null}]}`))
	f.Add([]byte(`{"data":[{"b64_json":"data:image/png;base64,QUJD\r\nREVG"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		streamed, _, serr := readWireStream(iotest.OneByteReader(bytes.NewReader(body)), int64(len(body)), 1<<20, 1<<20)
		whole, werr := parseWire(body)
		if serr != nil || werr != nil {
			return
		}
		a, b := streamed.meta.Get("data").Array(), whole.meta.Get("data").Array()
		if len(a) != len(b) {
			t.Fatalf("streamed %d items, whole %d", len(a), len(b))
		}
		for i := range a {
			x, xerr := streamed.image(a[i].Get("b64_json"))
			y, yerr := whole.image(b[i].Get("b64_json"))
			if xerr == nil && yerr == nil && !bytes.Equal(x, y) {
				t.Fatalf("image %d: streamed %q, whole %q", i, x, y)
			}
		}
	})
}

// FuzzWireStreamRoundTrip: any bytes, sent as base64 in each shape a
// gateway uses (plain, wrapped in lines, "\/"-escaped, a data: URL), come
// back exactly, read a byte at a time.
func FuzzWireStreamRoundTrip(f *testing.F) {
	_, _, png := hostileAnswer(hostile.NotAnImage)
	f.Add(png, uint8(0), false, false)
	f.Add(hostile.TinyPNG(), uint8(76), true, true)
	f.Add([]byte{0xff, 0xfe, 0xfd}, uint8(1), false, true)
	f.Fuzz(func(t *testing.T, data []byte, wrapAt uint8, escape, dataURL bool) {
		b64 := base64.StdEncoding.EncodeToString(data)
		if wrapAt > 0 {
			var lines []string
			for len(b64) > int(wrapAt) {
				lines = append(lines, b64[:wrapAt])
				b64 = b64[wrapAt:]
			}
			b64 = strings.Join(append(lines, b64), `\r\n`)
		}
		if escape {
			b64 = strings.ReplaceAll(b64, "/", `\/`)
		}
		if dataURL {
			b64 = "data:image/png;base64," + b64
		}
		body := `{"created":1,"data":[{"b64_json":"` + b64 + `"}]}`
		w, _, err := readWireStream(iotest.OneByteReader(strings.NewReader(body)), 0, 1<<24, 1<<24)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		got, err := w.image(w.meta.Get("data.0.b64_json"))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%q: got %q, %v", body, got, err)
		}
	})
}

// FuzzEditRequest: whatever the prompt, names and bytes, the multipart
// body a server parses gives back each image in the user's order, the
// mask, and every field, exactly.
func FuzzEditRequest(f *testing.F) {
	f.Add("the first on the second", "a.png", hostile.TinyPNG(), "second \"quoted\".jpg", []byte{0xff, 0xd8}, []byte("mask"), "1536x1024")
	f.Add("多行\r\n--boundary\r\n", "", []byte{}, "\x00", []byte("\r\n--"), []byte{}, "")
	f.Fuzz(func(t *testing.T, prompt, name1 string, img1 []byte, name2 string, img2, mask []byte, size string) {
		// The second image is a file, read as it is sent.
		second := filepath.Join(t.TempDir(), "second")
		if err := os.WriteFile(second, img2, 0o600); err != nil {
			t.Fatal(err)
		}
		req := EditRequest{Prompt: prompt, Images: []InputImage{
			{Name: name1, Data: img1, ContentType: "image/png"},
			{Name: name2, Path: second, Size: int64(len(img2))},
		}, Mask: &InputImage{Name: "mask.png", Data: mask}}
		req.Model, req.Size, req.N = "gpt-image-1", size, 2
		r, err := editRequest(req)
		if err != nil {
			t.Fatalf("editRequest: %v", err)
		}
		_, params, err := mime.ParseMediaType(r.contentType)
		if err != nil {
			t.Fatalf("content type %q: %v", r.contentType, err)
		}
		body, err := io.ReadAll(r.upload.open())
		if err != nil || int64(len(body)) != r.upload.length {
			t.Fatalf("the body read %d bytes (%v) where its length says %d", len(body), err, r.upload.length)
		}
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		var images [][]byte
		fields := map[string]string{}
		var gotMask []byte
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("part: %v", err)
			}
			b, err := io.ReadAll(p)
			if err != nil {
				t.Fatalf("part body: %v", err)
			}
			switch p.FormName() {
			case "image[]":
				images = append(images, b)
			case "mask":
				gotMask = b
			default:
				fields[p.FormName()] = string(b)
			}
		}
		if len(images) != 2 || !bytes.Equal(images[0], img1) || !bytes.Equal(images[1], img2) || !bytes.Equal(gotMask, mask) {
			t.Fatalf("images or mask changed: %d images", len(images))
		}
		want := map[string]string{"model": "gpt-image-1", "n": "2"}
		if prompt != "" {
			want["prompt"] = prompt
		}
		if size != "" {
			want["size"] = size
		}
		for k, v := range want {
			if fields[k] != v {
				t.Fatalf("field %s = %q, want %q", k, fields[k], v)
			}
		}
		if len(fields) != len(want) {
			t.Fatalf("fields %v, want %v", fields, want)
		}
	})
}

// FuzzClassifyHTTP: any failed answer is read as some Kind with a hint,
// and once cleaned nothing a person reads holds a control character, a
// bidi override or the key.
func FuzzClassifyHTTP(f *testing.F) {
	status, header, body := hostileAnswer(hostile.EvilError)
	f.Add(status, body, header.Get("X-Request-Id"), "")
	for _, b := range []string{
		`{"error":{"message":"用户额度不足, 剩余额度: ＄0.000000 (request id: 2025)","type":"new_api_error","code":"insufficient_user_quota"}}`,
		`{"error":{"message":"当前分组 default 下对于模型 gpt-image-1 无可用渠道","type":"new_api_error"}}`,
		`{"error":{"message":"Incorrect API key provided: sk-abc***xyz.","type":"invalid_request_error","code":"invalid_api_key"}}`,
		`{"error":{"message":"litellm.RateLimitError: try again in 30s","type":"throttling_error","code":"429"}}`,
		`<html><body><h1>524</h1>A timeout occurred</body></html>`,
		`{"error":{"message":"Invalid URL (POST /v1/v1/images/generations)","type":"invalid_request_error"}}`,
	} {
		f.Add(400, []byte(b), "30", "gpt-image-1")
	}
	f.Add(524, []byte{}, "", "")
	f.Add(429, []byte(`{}`), "Inf", "")
	f.Add(429, []byte(`{}`), "1e300", "")
	c := New(Config{BaseURL: "http://127.0.0.1:1/v1", APIKey: fuzzKey})
	f.Fuzz(func(t *testing.T, status int, body []byte, retry, model string) {
		if status < 100 || status > 999 {
			status = 400 + (status%200+200)%200
		}
		h := http.Header{}
		h.Set("Retry-After", retry)
		h.Set("X-Request-Id", retry+fuzzKey)
		e := c.scrub.error(classifyHTTP(status, h, body, model))
		if e == nil || e.Status != status {
			t.Fatalf("status %d read as %+v", status, e)
		}
		if e.Kind.String() == "" {
			t.Fatalf("no kind for %q", body)
		}
		for _, s := range append([]string{e.Message, e.Code, e.Type, e.Param, e.RequestID, e.Hint, e.Group, e.Error()}, e.Suggestions...) {
			if strings.Contains(s, fuzzKey[3:11]) {
				t.Fatalf("the key reaches a person: %q", s)
			}
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 reaches a person: %q", s)
			}
			for _, r := range s {
				if (unicode.IsControl(r) && r != '\n' && r != '\t') || unicode.Is(unicode.Bidi_Control, r) {
					t.Fatalf("%U reaches a person in %q", r, s)
				}
			}
		}
		if e.RetryAfter < 0 {
			t.Fatalf("a negative wait %v from %q", e.RetryAfter, retry)
		}
		if n, err := strconv.Atoi(retry); err == nil && n > 0 && n < 3600 && e.RetryAfter == 0 {
			t.Fatalf("Retry-After %q not read", retry)
		}
	})
}

// FuzzUsage: whatever usage an answer reports, what Easel keeps is whole
// token counts in [0, MaxTokens], or none (marked implausible).
func FuzzUsage(f *testing.F) {
	for _, seed := range []string{`{"input_tokens":10,"output_tokens":-1e15}`, `{"output_tokens":9223372036854775807}`,
		`{"output_tokens":1e30}`, `{"input_tokens":0,"output_tokens":4160}`, `{"prompt_tokens":12,"completion_tokens":"7"}`,
		`{"input_tokens_details":{"text_tokens":1.5}}`, `null`, `{}`, `{"total_tokens":NaN}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u := usageFrom(gjson.Parse(raw))
		if u == nil {
			return
		}
		for _, n := range []int64{u.InputTokens, u.OutputTokens, u.TotalTokens, u.TextTokens, u.ImageTokens} {
			if n < 0 || n > MaxTokens || u.Implausible && n != 0 {
				t.Fatalf("%q kept %+v", raw, u)
			}
		}
	})
}

// FuzzConsole: whatever a gateway's console answers, what Easel reads of
// it is finite and within its bounds, or an error.
func FuzzConsole(f *testing.F) {
	for _, seed := range []string{
		`{"data":{"quota_per_unit":500000,"quota_display_type":"USD"}}`, `{"data":{"quota_per_unit":1e308}}`,
		`{"data":[{"model_name":"m","model_ratio":-1}],"group_ratio":{"vip":0.5}}`,
		`{"data":{"object":"token_usage","total_used":9e30,"total_available":-5}}`,
		`{"data":{"object":"token_usage","unlimited_quota":true,"total_used":5000,"total_available":-5000}}`, `<html>`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
		}))
		defer ts.Close()
		c := New(Config{BaseURL: ts.URL + "/v1", APIKey: fuzzKey})
		ctx := t.Context()
		if s, err := c.GatewayStatus(ctx); err == nil && (!within(s.QuotaPerUnit, 1, 1e9) || !within(s.ExchangeRate, 0, 1e6)) {
			t.Fatalf("status %+v", s)
		}
		if p, err := c.GatewayPricing(ctx); err == nil {
			for _, m := range p.Models {
				if !within(m.ModelRatio, 0, 1e6) || !within(m.ModelPrice, 0, 1e4) || !within(m.CompletionRatio, 0, 1e4) {
					t.Fatalf("pricing %+v", m)
				}
			}
			for _, r := range p.GroupRatio {
				if !within(r, 0, 1e4) {
					t.Fatalf("group ratio %v", r)
				}
			}
		}
		if u, err := c.TokenUsage(ctx); err == nil && (!within(u.Used, 0, MaxQuota) || !u.Unlimited && !within(u.Available, -MaxQuota, MaxQuota)) {
			t.Fatalf("usage %+v", u)
		}
		if b, err := c.Balance(ctx); err == nil && (math.IsNaN(b.Credit) || math.IsInf(b.Credit, 0)) {
			t.Fatalf("balance %+v", b)
		}
	})
}

// FuzzBatchAnswers feeds what the Batch API and a background response
// send — a batch object, a response object, an answers file — to the
// readers that take them: counts stay within a batch's bound, ids carry
// no path, a line over the limit is skipped, no key comes back.
func FuzzBatchAnswers(f *testing.F) {
	for _, seed := range []string{
		`{"id":"batch_1","object":"batch","status":"completed","request_counts":{"total":99999999999,"completed":-5,"failed":3}}`,
		`{"id":"../x","object":"batch","status":"in_progress"}`,
		`{"id":"resp_1","object":"response","status":"completed","output":[{"type":"image_generation_call","result":"!!"}]}`,
		`{"id":"resp_1","object":"response","status":"failed","error":{"message":"sk-fuzz-0123456789abcdef leaked"}}`,
		"{\"custom_id\":\"easel-1\",\"response\":{\"status_code\":200,\"body\":{\"data\":[{\"b64_json\":\"iVBORw0KGgo=\"}]}}}\n{\"custom_id\":\"easel-2\",\"response\":{\"status_code\":400,\"body\":{\"error\":{\"message\":\"no\"}}}}\n",
		"{\"custom_id\":\"easel-3\",\"response\":null,\"error\":{\"code\":\"batch_expired\",\"message\":\"x\"}}\n" + strings.Repeat("x", 5000) + "\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		bs := NewBatches(New(Config{BaseURL: "http://127.0.0.1:1/v1", APIKey: fuzzKey, MaxResponse: 4096}))
		if b, err := bs.batchOf([]byte(body)); err == nil {
			if b.Total < 0 || b.Total > MaxBatchRequests || b.Completed < 0 || b.Failed > MaxBatchRequests || strings.ContainsAny(b.ID, "/?#") {
				t.Fatalf("batch %+v", b)
			}
		}
		if b, res, err := bs.renderOf([]byte(body)); err == nil {
			if strings.Contains(strings.Join(b.Errors, " "), fuzzKey) || res != nil && len(res.Images) > 1 {
				t.Fatalf("render %+v %+v", b, res)
			}
		}
		_ = bs.ReadAnswers(t.Context(), strings.NewReader(body), "gpt-image-1", 1, func(a BatchAnswer) error {
			if a.CustomID == "" || len(a.CustomID) > 64 || a.Result != nil && len(a.Result.Images) > 1 {
				t.Fatalf("answer %+v", a)
			}
			if a.Err != nil && strings.Contains(a.Err.Error(), fuzzKey) {
				t.Fatalf("the key came back: %v", a.Err)
			}
			return nil
		})
	})
}
