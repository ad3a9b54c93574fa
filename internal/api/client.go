package api

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Config says where the service is and how long to wait for it.
type Config struct {
	// BaseURL ends in /v1, for example https://api.openai.com/v1.
	BaseURL string
	// APIKey may be empty for local servers that take none.
	APIKey string
	// ConnectTimeout bounds dialling and the TLS handshake.
	ConnectTimeout time.Duration
	// FirstByteTimeout bounds the wait for the answer's headers on streams,
	// chats and model lists. A non-streamed image sends nothing until it is
	// done, so it is bounded by ImageTimeout alone.
	FirstByteTimeout time.Duration
	// ImageTimeout bounds a whole image request; ChatTimeout a chat.
	ImageTimeout time.Duration
	ChatTimeout  time.Duration
	// MaxResponse bounds the bytes read from one answer or one image URL.
	MaxResponse int64
	// Limits are the custom-size rules checked before sending.
	Limits Limits
	// HTTPClient replaces the transport, for tests; nil builds one from
	// the time-outs above.
	HTTPClient *http.Client
}

// Defaults for Config's zero fields. Images take tens of seconds as a
// rule, so the overall limit is generous; the first-byte limit catches a
// dead server early.
const (
	DefaultConnectTimeout   = 15 * time.Second
	DefaultFirstByteTimeout = 90 * time.Second
	DefaultImageTimeout     = 10 * time.Minute
	DefaultChatTimeout      = 5 * time.Minute
	DefaultMaxResponse      = 256 << 20
)

func (c Config) withDefaults() Config {
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.FirstByteTimeout == 0 {
		c.FirstByteTimeout = DefaultFirstByteTimeout
	}
	if c.ImageTimeout == 0 {
		c.ImageTimeout = DefaultImageTimeout
	}
	if c.ChatTimeout == 0 {
		c.ChatTimeout = DefaultChatTimeout
	}
	if c.MaxResponse == 0 {
		c.MaxResponse = DefaultMaxResponse
	}
	if c.Limits == (Limits{}) {
		c.Limits = DefaultLimits
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/") + "/"
	return c
}

// Client speaks to one service. It is safe for concurrent use: every job
// shares one.
type Client struct {
	cfg  Config
	http *http.Client
	oa   openai.Client
}

// New makes a client. Nothing is sent until a method is called.
func New(cfg Config) *Client {
	cfg = cfg.withDefaults()
	hc := cfg.HTTPClient
	if hc == nil {
		dialer := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}
		hc = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: cfg.ConnectTimeout,
			MaxIdleConnsPerHost: 8,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	// openai-go reads OPENAI_* from the environment in NewClient; the
	// explicit options below come after and win. Retries are off: a
	// retried image request costs money again and re-uploads an edit's
	// whole body, so Easel decides itself what to retry.
	oa := openai.NewClient(
		option.WithBaseURL(cfg.BaseURL),
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		option.WithHeader("Accept-Language", "en"),
	)
	return &Client{cfg: cfg, http: hc, oa: oa}
}

// Limits are the size rules this client checks before sending.
func (c *Client) Limits() Limits { return c.cfg.Limits }

// MaxRetryWait is the longest Retry-After that Easel waits out by itself;
// a longer one is reported to the user instead.
const MaxRetryWait = 20 * time.Second

// call sends one request and hands back the raw answer with its body
// unread, or a classified error. overall bounds the whole exchange;
// firstByte, when non-zero, bounds the wait for headers. The returned
// cancel must be called once the body has been read.
//
// A request refused for a passing rate limit (429 with a short
// Retry-After, not an exhausted quota) was not carried out, so it is sent
// once more after the wait — except an edit, whose whole upload would go
// again without the user knowing.
func (c *Client) call(ctx context.Context, method, path string, params any, model string, overall, firstByte time.Duration, opts ...option.RequestOption) (*http.Response, context.Context, context.CancelFunc, error) {
	for attempt := 0; ; attempt++ {
		resp, rctx, cancel, err := c.callOnce(ctx, method, path, params, model, overall, firstByte, opts...)
		var e *Error
		if err == nil || attempt > 0 || path == "images/edits" || !errors.As(err, &e) ||
			e.Kind != KindRateLimited || e.RetryAfter <= 0 || e.RetryAfter > MaxRetryWait {
			return resp, rctx, cancel, err
		}
		t := time.NewTimer(e.RetryAfter)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, nil, nil, classifyTransport(ctx, ctx.Err(), model)
		}
	}
}

func (c *Client) callOnce(ctx context.Context, method, path string, params any, model string, overall, firstByte time.Duration, opts ...option.RequestOption) (*http.Response, context.Context, context.CancelFunc, error) {
	ctx, cancelOverall := context.WithTimeoutCause(ctx, overall, errOverall)
	ctx, cancelFB := context.WithCancelCause(ctx)
	cancel := func() { cancelFB(nil); cancelOverall() }
	var timer *time.Timer
	if firstByte > 0 {
		timer = time.AfterFunc(firstByte, func() { cancelFB(errFirstByte) })
	}
	var raw *http.Response
	err := c.oa.Execute(ctx, method, path, params, &raw, opts...)
	if timer != nil {
		timer.Stop()
	}
	if err != nil {
		defer cancel()
		e := c.classify(ctx, err, model)
		if e.Kind == KindUnknownModel && model != "" && path != "models" {
			c.suggest(context.WithoutCancel(ctx), e, model)
		}
		return nil, nil, nil, e
	}
	return raw, ctx, cancel, nil
}

// suggest adds the closest listed model names to an unknown-model error,
// asking the service for its list with a short deadline of its own.
func (c *Client) suggest(ctx context.Context, e *Error, model string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ms, err := c.Models(ctx)
	if err != nil {
		return
	}
	e.Suggestions = ClosestModels(model, ModelIDs(ms))
	e.Hint = hintFor(e, model)
}

// classify turns whatever openai-go returned into an *Error.
func (c *Client) classify(ctx context.Context, err error, model string) *Error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) && apiErr.Response != nil {
		var body []byte
		if apiErr.Response.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(apiErr.Response.Body, 1<<20))
		}
		e := classifyHTTP(apiErr.StatusCode, apiErr.Response.Header, body, model)
		e.Message = c.redact(e.Message)
		return e
	}
	e := classifyTransport(ctx, err, model)
	if e.Err != nil {
		e.Err = errors.New(c.redact(e.Err.Error()))
	}
	return e
}

// redact removes from s any run of 8 or more characters of the API key:
// some services echo a masked key in their messages, and an error text
// may end up in a log or a screenshot.
func (c *Client) redact(s string) string {
	return Redact(s, c.cfg.APIKey)
}

// Redact removes every run of eight or more characters of secret from s.
func Redact(s, secret string) string {
	const run = 8
	if len(secret) < run {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[key]")
		}
		return s
	}
	for i := 0; i+run <= len(secret); i++ {
		if piece := secret[i : i+run]; strings.Contains(s, piece) {
			// widen to the longest run present starting here
			j := i + run
			for j < len(secret) && strings.Contains(s, secret[i:j+1]) {
				j++
			}
			s = strings.ReplaceAll(s, secret[i:j], "[key]")
		}
	}
	return s
}
