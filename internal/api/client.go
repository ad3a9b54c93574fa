package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
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
	// IdleTimeout bounds the wait between two events of a stream, once
	// it has begun: a stream that trickles a byte at a time, or sends
	// keep-alive comments alone, ends then rather than at ImageTimeout.
	IdleTimeout time.Duration
	// MaxResponse bounds the bytes read from one answer or one image URL.
	MaxResponse int64
	// Limits are the custom-size rules checked before sending.
	Limits Limits
	// TurnModel is the text model a thread's turn talks to when it goes
	// through the Responses API (its image tool draws with the image
	// model); "" is DefaultTurnModel. The profile's chat model.
	TurnModel string
	// OnWait, when set, is told when Easel waits out a short Retry-After
	// itself before sending again, so the wait is shown, not silent.
	OnWait func(time.Duration)
	// HTTPClient replaces the transport, for tests; nil builds one from
	// the time-outs above.
	HTTPClient *http.Client
	// Proxy chooses the proxy for a request; nil reads HTTP_PROXY,
	// HTTPS_PROXY and NO_PROXY (which Go reads once per process, so
	// tests set this instead).
	Proxy func(*http.Request) (*url.URL, error)
}

// Defaults for Config's zero fields. Images take tens of seconds as a
// rule, so the overall limit is generous; the first-byte limit catches a
// dead server early.
const (
	DefaultConnectTimeout   = 15 * time.Second
	DefaultFirstByteTimeout = 90 * time.Second
	DefaultImageTimeout     = 10 * time.Minute
	DefaultChatTimeout      = 5 * time.Minute
	// DefaultIdleTimeout is longer than a high-quality image takes to
	// arrive when a stream sends no previews (about two minutes).
	DefaultIdleTimeout = 3 * time.Minute
	DefaultMaxResponse = 256 << 20
	// MaxListResponse bounds a model list: a gateway listing ten
	// thousand models sends about a megabyte, and well-formed lists of
	// 14 MB have been seen.
	MaxListResponse = 32 << 20
	// MaxChatResponse bounds a chat answer, streamed or not: a whole
	// book is a few megabytes of text.
	MaxChatResponse = 32 << 20
	// MaxErrorBody bounds what is read of an error answer: a message,
	// a code and a few fields.
	MaxErrorBody = 64 << 10
)

// limitFor is the byte limit of an answer to path, never more than the
// configured MaxResponse: small where only a little is needed.
func (c *Client) limitFor(path string) int64 {
	switch {
	case path == "models":
		return min(MaxListResponse, c.cfg.MaxResponse)
	case strings.HasPrefix(path, "chat/"):
		return min(MaxChatResponse, c.cfg.MaxResponse)
	}
	return c.cfg.MaxResponse
}

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
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
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
	cfg Config
	// scrub cleans what the client hands back: every public method's
	// error and every text of the service's it passes on.
	scrub scrubber
	http  *http.Client
	// links fetches the images a dall-e style answer links to: no key,
	// redirects over http(s) only, guarded addresses (origin.go).
	links *http.Client
}

// New makes a client. Nothing is sent until a method is called.
func New(cfg Config) *Client {
	cfg = cfg.withDefaults()
	// A pasted key often brings its line break along.
	cfg.APIKey = strings.TrimSpace(cfg.APIKey)
	c := &Client{cfg: cfg, scrub: scrubber{secret: cfg.APIKey}}
	proxy := cfg.Proxy
	if proxy == nil {
		proxy = http.ProxyFromEnvironment
	}
	plain := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}
	transport := func(proxy func(*http.Request) (*url.URL, error), dial func(context.Context, string, string) (net.Conn, error)) http.RoundTripper {
		return &http.Transport{
			Proxy:               proxy,
			DialContext:         dial,
			TLSHandshakeTimeout: cfg.ConnectTimeout,
			MaxIdleConnsPerHost: 8,
			IdleConnTimeout:     90 * time.Second,
		}
	}
	g := newLinkGuard(isLocalService(cfg.BaseURL), proxy, plain, cfg.ConnectTimeout)
	api, links := http.Client{Transport: transport(proxy, plain.DialContext)}, http.Client{Transport: transport(g.proxy, g.dial)}
	if cfg.HTTPClient != nil { // tests: their transport, our policies
		api, links = *cfg.HTTPClient, *cfg.HTTPClient
	}
	api.CheckRedirect, links.CheckRedirect = c.sameOrigin, linkRedirect
	c.http, c.links = &api, &links
	return c
}

// KeyID names the client's key without holding it: the first 64 bits of
// its SHA-256, hex. What Easel learns of a key (its usage, the rate it
// pays, what its ledger was settled to) is kept under it, so a key
// replaced in the same profile starts afresh; it cannot give the key
// back, and is never sent. "" when the client has no key.
func (c *Client) KeyID() string {
	if c.cfg.APIKey == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("easel key id\x00" + c.cfg.APIKey))
	return hex.EncodeToString(sum[:8])
}

// Limits are the size rules this client checks before sending.
func (c *Client) Limits() Limits { return c.cfg.Limits }

// onWaitKey carries a request's own OnWait in its context.
type onWaitKey struct{}

// WithOnWait returns ctx carrying f, told (as Config.OnWait is) when
// Easel waits out a Retry-After before sending this request again: a job
// shows its own countdown, while the client is shared by every job of a
// profile.
func WithOnWait(ctx context.Context, f func(time.Duration)) context.Context {
	return context.WithValue(ctx, onWaitKey{}, f)
}

// MaxRetryWait is the longest Retry-After that Easel waits out by itself;
// a longer one is reported to the user instead.
const MaxRetryWait = 20 * time.Second

// request is one call as it goes on the wire.
type request struct {
	method, path string
	// root, when set, is the origin path is asked of (a gateway's
	// console endpoints) instead of the base URL.
	root string
	// body is sent as is with contentType; nil for a GET. Being whole
	// bytes, it can be sent again after a rate-limit wait.
	body []byte
	// upload, instead of body, is an edit's multipart body, read from
	// its files as it is sent.
	upload      *streamedBody
	contentType string
	// stream asks for server-sent events (Accept: text/event-stream).
	stream bool
	// model names the model for hints in errors; "" when none.
	model string
	// overall bounds the whole exchange; firstByte, when non-zero, bounds
	// the wait for the answer's headers.
	overall, firstByte time.Duration
}

// call sends one request and hands back the raw answer with its body
// unread, or a classified error. The returned cancel must be called once
// the body has been read.
//
// Easel decides itself what to retry: a retried image costs money again.
// A request refused for a passing rate limit (429 with a short
// Retry-After, not an exhausted quota) was not carried out, so it is sent
// once more after the wait — except an edit, whose whole upload would go
// again without the user knowing.
func (c *Client) call(ctx context.Context, r request) (*http.Response, context.Context, context.CancelFunc, error) {
	for attempt := 0; ; attempt++ {
		resp, rctx, cancel, err := c.callOnce(ctx, r)
		var e *Error
		if err == nil || attempt > 0 || r.path == "images/edits" || !errors.As(err, &e) ||
			e.Kind != KindRateLimited || e.RetryAfter <= 0 || e.RetryAfter > MaxRetryWait {
			return resp, rctx, cancel, err
		}
		if c.cfg.OnWait != nil {
			c.cfg.OnWait(e.RetryAfter)
		}
		if f, ok := ctx.Value(onWaitKey{}).(func(time.Duration)); ok {
			f(e.RetryAfter)
		}
		t := time.NewTimer(e.RetryAfter)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, nil, nil, classifyTransport(ctx, ctx.Err(), r.model)
		}
	}
}

func (c *Client) callOnce(ctx context.Context, r request) (*http.Response, context.Context, context.CancelFunc, error) {
	ctx, cancelOverall := context.WithTimeoutCause(ctx, r.overall, errOverall)
	ctx, cancelFB := context.WithCancelCause(ctx)
	cancel := func() { cancelFB(nil); cancelOverall() }
	var timer *time.Timer
	if r.firstByte > 0 {
		timer = time.AfterFunc(r.firstByte, func() { cancelFB(errFirstByte) })
	}
	sent := time.Now()
	var wrote atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
		wrote.Store(i.Err == nil)
	}})
	resp, err := c.send(ctx, r)
	if timer != nil {
		timer.Stop()
	}
	var e *Error
	switch {
	case err != nil:
		if se, ok := sourceFailed(err); ok {
			// A file that went while it was read for sending: the
			// service had at most part of a body, which it refuses.
			e = se
			break
		}
		// A transport error can quote what the service chose (a
		// redirect's target): it is cleaned below like the service's own
		// words.
		e = classifyTransport(ctx, err, r.model)
		if wrote.Load() {
			brokeAfterSending(e)
		}
	case resp.StatusCode/100 != 2:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
		_ = resp.Body.Close()
		e = classifyHTTP(resp.StatusCode, resp.Header, body, r.model)
		c.refine(e, r, time.Since(sent))
		if e.Status == http.StatusNotImplemented {
			e.Hint, e.NotOffered = notImplementedHint(r.path), true
		}
	default:
		if r.stream && isEventStream(resp) {
			// From here a stream must keep delivering events: the
			// readers touch the watchdog on each one.
			idle := time.AfterFunc(c.cfg.IdleTimeout, func() { cancelFB(errIdle) })
			ctx = context.WithValue(ctx, idleKey{}, &idleWatch{timer: idle, d: c.cfg.IdleTimeout})
			return resp, ctx, func() { idle.Stop(); cancel() }, nil
		}
		return resp, ctx, cancel, nil
	}
	defer cancel()
	if e.Kind == KindUnknownModel && r.model != "" && r.path != "models" {
		c.suggest(context.WithoutCancel(ctx), e, r.model)
	}
	return nil, nil, nil, c.scrub.error(e)
}

// send puts r on the wire. The key goes only in the Authorization header,
// and only when there is one.
func (c *Client) send(ctx context.Context, r request) (*http.Response, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	target := c.cfg.BaseURL + r.path
	if r.root != "" {
		target = r.root + r.path
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, body)
	if err != nil {
		return nil, fmt.Errorf(catalogue.T("the service address %q cannot be used: %w"), c.cfg.BaseURL, err)
	}
	attachBody(ctx, req, r)
	if r.body != nil || r.upload != nil {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	req.Header.Set("Accept-Language", "en")
	req.Header.Set("User-Agent", "Easel")
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	return c.http.Do(req)
}

// jsonAnswer sends r and reads its JSON answer, of at most limit bytes
// (a model list, a batch, a file's record); notJSON says what the answer
// should have been when it is not JSON. r's overall deadline is the
// first byte's when it has none of its own: such an answer is small.
func (c *Client) jsonAnswer(ctx context.Context, r request, limit int64, notJSON string) ([]byte, http.Header, error) {
	if r.overall == 0 {
		r.overall = c.cfg.FirstByteTimeout
	}
	resp, rctx, cancel, err := c.call(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	if isWebPage(resp) {
		return nil, nil, webPage(resp)
	}
	body, err := readBody(resp.Body, resp.ContentLength, limit)
	if err != nil {
		return nil, nil, c.readErr(rctx, err, "")
	}
	if !gjson.ValidBytes(body) {
		return nil, nil, badResponse(notJSON, nil, resp.Header)
	}
	return body, resp.Header, nil
}

// notImplementedHint says which of Easel's requests the service does not
// offer: a 501 means the endpoint, not the request, and the advice
// differs for each.
func notImplementedHint(path string) string {
	switch path {
	case "images/generations":
		return catalogue.T("This service does not offer image generation (Text to image): use a profile on another provider for it.")
	case "images/edits":
		return catalogue.T("This service does not offer image edits (Edit): use a profile on another provider for it.")
	case "chat/completions":
		return catalogue.T("This service does not offer chat: use a profile on another provider for it.")
	case "models":
		return catalogue.T("This service does not offer a model list: use a profile on another provider for it.")
	}
	return catalogue.T("This service does not offer this request: use a profile on another provider for it.")
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

// Redact removes every run of eight or more characters of secret from s.
// A secret shorter than that (a local server's "x") is removed only where
// it stands as a word of its own: masked inside words, it would turn
// "proxy" into "pro[key]y" and say nothing about the key.
func Redact(s, secret string) string {
	const run = 8
	if len(secret) < run {
		if secret != "" {
			s = redactWhole(s, secret)
		}
		return s
	}
	s = redactRuns(s, secret, run)
	// The key spelled back another way: reversed, or in base64 as part
	// of a longer text (each alignment of its bytes reads differently).
	for _, v := range respelled(secret) {
		s = redactRuns(s, v, 12)
	}
	return redactSpread(s, secret)
}

// redactRuns removes every run of run or more characters of secret.
func redactRuns(s, secret string, run int) string {
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

// respelled are other spellings of secret a service may send back: the
// key reversed, and its base64 (standard and URL alphabets) at each of
// the three alignments it can have inside a longer encoded text, less
// the characters the neighbouring bytes change.
func respelled(secret string) []string {
	r := []rune(secret)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	out := []string{string(r)}
	for shift := 0; shift < 3; shift++ {
		padded := strings.Repeat("\x00", shift) + secret
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			b := enc.EncodeToString([]byte(padded))
			// The first and last characters mix in the neighbours' bits.
			lead := (shift*4 + 2) / 3
			if len(b) > lead+2 {
				out = append(out, b[lead:len(b)-2])
			}
		}
	}
	return out
}

// redactSpread removes the secret spelled out with separators between
// its characters ("s k - a b c …", dashes, dots, invisible characters):
// its letters and digits in order, nothing else but separators between.
// Only a secret of 16 or more letters and digits is looked for so, as a
// shorter run could be a word.
func redactSpread(s, secret string) string {
	var key []rune
	for _, r := range secret {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			key = append(key, r)
		}
	}
	if len(key) < 16 {
		return s
	}
	rs := []rune(s)
	for start := 0; start < len(rs); start++ {
		if rs[start] != key[0] {
			continue
		}
		k, i := 0, start
		for ; i < len(rs) && k < len(key); i++ {
			switch r := rs[i]; {
			case r == key[k]:
				k++
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				i = len(rs) + 1 // another letter: not the key spread
			}
		}
		if k == len(key) {
			return string(rs[:start]) + "[key]" + redactSpread(string(rs[i:]), secret)
		}
	}
	return s
}

// redactWhole replaces each occurrence of secret in s that is not part of
// a longer word (letters, digits, '-' and '_' either side).
func redactWhole(s, secret string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, secret)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(secret)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		b.WriteString(s[:i])
		if (i > 0 && isWordRune(before)) || (end < len(s) && isWordRune(after)) {
			b.WriteString(secret)
		} else {
			b.WriteString("[key]")
		}
		s = s[end:]
	}
}

func isWordRune(r rune) bool {
	return r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// idleKey carries a stream's idle watchdog in its context.
type idleKey struct{}

// idleWatch ends a stream that has sent no event for d.
type idleWatch struct {
	timer *time.Timer
	d     time.Duration
}

// progressed tells ctx's stream watchdog, if any, that an event arrived.
func progressed(ctx context.Context) {
	if w, ok := ctx.Value(idleKey{}).(*idleWatch); ok {
		w.timer.Reset(w.d)
	}
}
