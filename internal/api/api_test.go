package api_test

import (
	"context"
	"errors"
	"image/color"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/testsupport/fixture"
)

const testKey = "sk-test-0123456789abcdefghij"

// newFake starts the demo service and a client for it.
func newFake(t *testing.T, cfg demoservice.Config) (*api.Client, *demoservice.Server, string) {
	t.Helper()
	if cfg.Key == "" {
		cfg.Key = testKey
	}
	srv := demoservice.New(cfg)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	base := ts.URL + "/v1"
	return api.New(api.Config{BaseURL: base, APIKey: cfg.Key}), srv, base
}

func gen(model string) api.GenerateRequest {
	return api.GenerateRequest{Prompt: "a lighthouse at dusk", ImageOptions: api.ImageOptions{Model: model, Size: "1024x1024"}}
}

func asAPIError(t *testing.T, err error) *api.Error {
	t.Helper()
	var e *api.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *api.Error", err, err)
	}
	return e
}

func TestGenerateEveryFormat(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	for _, tc := range []struct {
		format, background string
		compression        *int
	}{
		{"png", "opaque", nil}, {"png", "transparent", nil},
		{"jpeg", "opaque", ptr(60)}, {"webp", "transparent", ptr(80)}, {"webp", "auto", ptr(100)},
	} {
		req := gen("gpt-image-1")
		req.Size = "1536x1024"
		req.OutputFormat, req.Background, req.OutputCompression = tc.format, tc.background, tc.compression
		res, err := c.Generate(context.Background(), req, nil)
		if err != nil {
			t.Fatalf("%s/%s: %v", tc.format, tc.background, err)
		}
		if len(res.Images) != 1 {
			t.Fatalf("%d images", len(res.Images))
		}
		img := res.Images[0]
		if img.Format != tc.format || img.Width != 1536 || img.Height != 1024 {
			t.Errorf("%s: got %s %dx%d", tc.format, img.Format, img.Width, img.Height)
		}
		if res.RequestID == "" || res.Usage == nil || res.Usage.OutputTokens == 0 || res.Created.IsZero() {
			t.Errorf("%s: missing request id, usage or created: %+v", tc.format, res)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// The demo draws the same picture for the same prompt (its answers'
// signatures differ, as every signature does: an unsigned demo is
// compared).
func TestGenerateIsDeterministicPerPrompt(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Unsigned: true})
	a, err := c.Generate(context.Background(), gen("gpt-image-1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Generate(context.Background(), gen("gpt-image-1"), nil)
	other := gen("gpt-image-1")
	other.Prompt = "a cat"
	o, _ := c.Generate(context.Background(), other, nil)
	if string(a.Images[0].Data) != string(b.Images[0].Data) {
		t.Error("same prompt gave different images")
	}
	if string(a.Images[0].Data) == string(o.Images[0].Data) {
		t.Error("different prompts gave the same image")
	}
}

func TestGenerateStreamsPartialsThenImage(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	req := gen("gpt-image-1")
	req.Stream, req.PartialImages, req.N = true, 3, 2
	var partials []api.Partial
	res, err := c.Generate(context.Background(), req, func(p api.Partial) { partials = append(partials, p) })
	if err != nil {
		t.Fatal(err)
	}
	// Three previews of the first image, the first itself, three of the
	// second, the second itself: each tagged with its image.
	if len(partials) != 8 {
		t.Fatalf("%d previews and images, want 3 previews and the image for each of 2", len(partials))
	}
	for i, p := range partials {
		image, step := i/4, i%4
		if p.Image != image || p.Final != (step == 3) || p.Format != "png" || len(p.Data) == 0 {
			t.Errorf("event %d: image %d final %v format %q, want image %d final %v", i, p.Image, p.Final, p.Format, image, step == 3)
		}
		if !p.Final && p.Index != step {
			t.Errorf("preview %d: index %d, want %d", i, p.Index, step)
		}
	}
	if string(partials[3].Data) != string(res.Images[0].Data) || string(partials[7].Data) != string(res.Images[1].Data) {
		t.Error("an image shown as it arrived is not the image kept")
	}
	if len(res.Images) != 2 || res.Usage == nil {
		t.Errorf("got %d images, usage %v", len(res.Images), res.Usage)
	}
}

func TestStreamRequestAnsweredWithPlainJSON(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	req := gen("fault-" + demoservice.FaultJSONForStream)
	req.Stream, req.PartialImages = true, 2
	calls := 0
	res, err := c.Generate(context.Background(), req, func(api.Partial) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 1 || calls != 0 {
		t.Errorf("images %d, previews %d", len(res.Images), calls)
	}
}

func TestURLAnswerIsDownloaded(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	req := gen("dall-e-3")
	req.ResponseFormat = "url"
	res, err := c.Generate(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Images[0].Format != "png" || res.Images[0].Width != 1024 {
		t.Errorf("downloaded %+v", res.Images[0].Format)
	}
}

func TestURLAnswerMustBeHTTP(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"created":1,"data":[{"url":"file:///etc/passwd"}]}`))
	}))
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1"})
	_, err := c.Generate(context.Background(), gen("dall-e-3"), nil)
	if e := asAPIError(t, err); e.Kind != api.KindBadResponse || !strings.Contains(e.Message, "not an http") {
		t.Errorf("got %v", e)
	}
}

func TestCancelMidStreamEndsQuickly(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Pace: 2 * time.Second})
	req := gen("gpt-image-1")
	req.Stream, req.PartialImages = true, 3
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Generate(ctx, req, nil)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond) // the stream is open, waiting for a preview
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if took := time.Since(start); took > 200*time.Millisecond {
			t.Errorf("cancel took %v, want under 200ms", took)
		}
		if e := asAPIError(t, err); e.Kind != api.KindCancelled {
			t.Errorf("kind %v, want cancelled", e.Kind)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("cancel did not end the request")
	}
}

func TestFirstByteTimeout(t *testing.T) {
	srv := demoservice.New(demoservice.Config{SlowFirstByte: 5 * time.Second})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", FirstByteTimeout: 150 * time.Millisecond})
	req := gen("fault-" + demoservice.FaultSlowFirstByte)
	req.Stream = true
	start := time.Now()
	_, err := c.Generate(context.Background(), req, nil)
	e := asAPIError(t, err)
	// The request was streamed: the hint must not tell the user to turn
	// streaming on.
	if e.Kind != api.KindTimeout || strings.Contains(e.Hint, "turn on streaming") || !strings.Contains(e.Hint, "stopped sending") {
		t.Errorf("got %v / %s", e, e.Hint)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("time-out took %v", time.Since(start))
	}
}

func TestOverallTimeout(t *testing.T) {
	srv := demoservice.New(demoservice.Config{SlowFirstByte: 5 * time.Second})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", ImageTimeout: 200 * time.Millisecond})
	_, err := c.Generate(context.Background(), gen("fault-"+demoservice.FaultSlowFirstByte), nil)
	if e := asAPIError(t, err); e.Kind != api.KindTimeout {
		t.Errorf("got %v", e)
	}
}

func TestModelsWithEndpointTypes(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	ms, err := c.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != len(demoservice.DefaultModels) {
		t.Fatalf("%d models", len(ms))
	}
	for _, m := range ms {
		if m.ID == "gpt-image-1" && (len(m.EndpointTypes) != 1 || m.EndpointTypes[0] != "image-generation") {
			t.Errorf("gpt-image-1 endpoint types %v", m.EndpointTypes)
		}
	}
}

func TestUnknownModelSuggestsClosestListed(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	_, err := c.Generate(context.Background(), gen("GPT-Image-1"), nil)
	e := asAPIError(t, err)
	if e.Kind != api.KindUnknownModel {
		t.Fatalf("kind %v", e.Kind)
	}
	if len(e.Suggestions) == 0 || e.Suggestions[0] != "gpt-image-1" {
		t.Errorf("suggestions %v", e.Suggestions)
	}
	if !strings.Contains(e.Hint, "gpt-image-1") || !strings.Contains(e.Hint, "exactly") {
		t.Errorf("hint %q", e.Hint)
	}
}

func TestWrongKeyIsAuth(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: testKey})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-wrong-key-zzzzzzzzzzzz"})
	_, err := c.Models(context.Background())
	if e := asAPIError(t, err); e.Kind != api.KindAuth || e.Status != 401 {
		t.Errorf("got %v", e)
	}
}

func TestBalanceRunsOut(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{Balance: 2})
	for i := 0; i < 2; i++ {
		if _, err := c.Generate(context.Background(), gen("gpt-image-1"), nil); err != nil {
			t.Fatalf("image %d: %v", i+1, err)
		}
	}
	_, err := c.Generate(context.Background(), gen("gpt-image-1"), nil)
	e := asAPIError(t, err)
	if e.Kind != api.KindInsufficientBalance || !strings.Contains(e.Hint, "account console") {
		t.Errorf("got %v / %s", e, e.Hint)
	}
}

func TestNetworkErrorForClosedPort(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	base := ts.URL + "/v1"
	ts.Close()
	_, err := api.New(api.Config{BaseURL: base}).Models(context.Background())
	if e := asAPIError(t, err); e.Kind != api.KindNetwork || !strings.Contains(e.Hint, "base URL") {
		t.Errorf("got %v", e)
	}
}

func TestPassingRateLimitIsRetriedAfterItsWait(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	start := time.Now()
	res, err := c.Generate(context.Background(), gen("fault-"+demoservice.FaultRateLimitOnce), nil)
	if err != nil {
		t.Fatalf("not retried: %v", err)
	}
	if len(res.Images) != 1 || time.Since(start) < time.Second {
		t.Errorf("retried without waiting Retry-After (%v)", time.Since(start))
	}
}

func TestEditIsNeverRetried(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	png := fixture.SolidPNG(t, 8, 8, color.NRGBA{A: 255})
	_, err := c.Edit(context.Background(), api.EditRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "fault-" + demoservice.FaultRateLimitOnce},
		Images: []api.InputImage{{Name: "a.png", Data: png}}}, nil)
	if e := asAPIError(t, err); e.Kind != api.KindRateLimited || e.RetryAfter != time.Second {
		t.Errorf("edit: %v", e)
	}
}
