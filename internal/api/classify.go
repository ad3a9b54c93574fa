package api

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
)

// errorFields are the parts of an {"error": …} body Easel reads. Gateways
// differ: code may be a number, message may be in Chinese, the object may
// come inside an SSE event.
type errorFields struct {
	Code, Type, Param, Message string
}

// parseErrorBody reads {"error": {...}} (or a bare {"message": …}) from
// body. ok is false when body is not such JSON (an HTML error page, say).
func parseErrorBody(body []byte) (f errorFields, ok bool) {
	if !gjson.ValidBytes(body) {
		return f, false
	}
	root := gjson.ParseBytes(body)
	e := root.Get("error")
	if !e.Exists() {
		e = root
	}
	if e.Type == gjson.String { // {"error": "text"}
		return errorFields{Message: e.String()}, true
	}
	f = errorFields{
		Code:    e.Get("code").String(),
		Type:    e.Get("type").String(),
		Param:   e.Get("param").String(),
		Message: e.Get("message").String(),
	}
	return f, f.Message != "" || f.Code != "" || f.Type != ""
}

// classifyHTTP turns an error answer into an Error. model is the model the
// request named, for the hint.
func classifyHTTP(status int, header http.Header, body []byte, model string) *Error {
	e := &Error{Status: status, RequestID: requestID(header)}
	f, ok := parseErrorBody(body)
	if ok {
		e.Code, e.Type, e.Param, e.Message = f.Code, f.Type, f.Param, f.Message
	} else {
		e.Message = nonJSONMessage(status, header, body)
		// An error object cut at MaxErrorBody still names its code and
		// type before its long message: what they say is read.
		f.Code, _ = cutField(body, "code")
		f.Type, _ = cutField(body, "type")
		e.Code, e.Type = f.Code, f.Type
		f.Message = e.Message
	}
	e.RetryAfter = retryAfter(header)
	e.Kind = kindOf(status, f)
	e.Hint = hintFor(e, model)
	vocabulary(e, model)
	return e
}

// kindOf decides the Kind: codes first, then status, then words.
func kindOf(status int, f errorFields) Kind {
	code := strings.ToLower(f.Code)
	if k, ok := kindOfCode[code]; ok {
		return k
	}
	msg := strings.ToLower(f.Message)
	switch {
	case status == http.StatusUnauthorized:
		return KindAuth
	case status == http.StatusPaymentRequired:
		return KindInsufficientBalance
	case status == http.StatusForbidden:
		if mentionsBalance(msg) {
			return KindInsufficientBalance
		}
		if strings.Contains(msg, "model") {
			return KindNoAccess
		}
		return KindAuth
	case status == http.StatusTooManyRequests:
		if mentionsBalance(msg) {
			return KindInsufficientBalance
		}
		return KindRateLimited
	case status == http.StatusRequestTimeout || status == http.StatusGatewayTimeout:
		return KindTimeout
	case status == http.StatusNotFound && invalidURL(msg):
		return KindWrongAddress
	case status == http.StatusNotFound && strings.Contains(msg, "model"):
		return KindUnknownModel
	case status == http.StatusServiceUnavailable && (strings.Contains(msg, "no available channel") || strings.Contains(msg, "无可用渠道")):
		return KindUnknownModel
	case status >= 500:
		return KindServer
	case status >= 400:
		return kindOfRequest(msg, code, strings.ToLower(f.Param))
	}
	return KindUnknown
}

// kindOfCode are the error codes OpenAI and the gateways send that say
// the kind whatever the status.
var kindOfCode = map[string]Kind{
	"invalid_api_key": KindAuth, "invalid_token": KindAuth, "unauthorized": KindAuth,
	"model_not_found": KindUnknownModel, "model_not_exist": KindUnknownModel,
	"insufficient_quota": KindInsufficientBalance, "credit_balance_exhausted": KindInsufficientBalance,
	"insufficient_user_quota": KindInsufficientBalance, "billing_hard_limit_reached": KindInsufficientBalance,
	"quota_exceeded":      KindInsufficientBalance,
	"rate_limit_exceeded": KindRateLimited,
	"invalid_size":        KindInvalidSize, "size_not_supported": KindInvalidSize,
	"invalid_image": KindInvalidImage, "invalid_image_format": KindInvalidImage, "image_too_large": KindInvalidImage,
	"invalid_mask": KindInvalidImage, "image_parse_error": KindInvalidImage,
	"model_not_allowed": KindNoAccess, "model_access_denied": KindNoAccess,
}

// kindOfRequest reads a 4xx that no code or status decided by its words:
// which part of the request the service refused.
func kindOfRequest(msg, code, param string) Kind {
	switch {
	case refusesImages(msg, code):
		return KindNoImages
	case param == "size" || strings.Contains(msg, "invalid size") || strings.Contains(msg, "size must") || strings.Contains(msg, "invalid value for 'size'"):
		return KindInvalidSize
	case strings.HasPrefix(param, "image") || param == "mask" || strings.Contains(msg, "invalid image") || strings.Contains(msg, "unsupported image"):
		return KindInvalidImage
	case strings.Contains(msg, "model") && (strings.Contains(msg, "does not exist") || strings.Contains(msg, "not found")):
		return KindUnknownModel
	case mentionsBalance(msg):
		return KindInsufficientBalance
	}
	return KindInvalidRequest
}

// refusesImages reports whether a 400 says the model takes no images, in
// the words OpenAI and the gateways use ("image_url is only supported by
// certain models", "does not support image input").
func refusesImages(msg, code string) bool {
	if code == "image_input_not_supported" || code == "unsupported_content_type" {
		return true
	}
	if !strings.Contains(msg, "image") {
		return false
	}
	for _, w := range []string{"only supported by certain models", "does not support image", "not support image", "image input is not supported", "vision is not supported", "invalid content type"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

func mentionsBalance(msg string) bool {
	for _, w := range []string{"quota", "balance", "credit", "额度", "余额"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// nonJSONMessage describes an error body that is not JSON, such as a
// proxy's HTML page, without pasting the page.
func nonJSONMessage(status int, header http.Header, body []byte) string {
	ct := header.Get("Content-Type")
	if strings.Contains(ct, "html") || strings.HasPrefix(strings.TrimSpace(string(body)), "<") {
		return catalogue.F("the service answered %d %s with a web page instead of an API error", status, http.StatusText(status))
	}
	// A body cut at MaxErrorBody may end inside a character (a long
	// Chinese message): what precedes it is still text.
	text := strings.TrimSpace(string(wholeRunes(body)))
	if !readable(text) {
		return catalogue.F("the service answered %d %s with a body that is not text", status, http.StatusText(status))
	}
	if msg, ok := cutMessage(wholeRunes(body)); ok {
		// JSON cut off (longer than Easel reads of an error): its
		// message, cut cleanly, rather than a raw fragment.
		return msg
	}
	if r := []rune(text); len(r) > 200 {
		text = string(r[:200]) + "…"
	}
	if text == "" {
		return catalogue.F("the service answered %d %s with no details", status, http.StatusText(status))
	}
	return text
}

// readable is whether an error body is text a person could read: valid
// UTF-8 without control characters, as no service's own words contain.
// Binary garbage shown as it came would read as mojibake.
func readable(text string) bool {
	if !utf8.ValidString(text) {
		return false
	}
	for _, r := range text {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t') {
			return false
		}
	}
	return true
}

// wholeRunes is body without a last character cut in two.
func wholeRunes(body []byte) []byte {
	for cut := 0; cut < utf8.UTFMax && len(body) > cut; cut++ {
		if utf8.Valid(body[:len(body)-cut]) {
			return body[:len(body)-cut]
		}
	}
	return body
}

// cutField is a string field of an error answer whose JSON was cut off.
func cutField(body []byte, name string) (string, bool) {
	_, after, ok := strings.Cut(string(body), `"`+name+`"`)
	if !ok {
		return "", false
	}
	after = strings.TrimLeft(after, " \t\r\n:")
	if !strings.HasPrefix(after, `"`) {
		return "", false
	}
	value := after[1:]
	if end := strings.IndexByte(value, '"'); end >= 0 {
		value = value[:end]
	}
	return value, value != ""
}

// cutMessage finds the "message" of an error answer whose JSON was cut
// off, and shortens it to what a person reads.
func cutMessage(body []byte) (string, bool) {
	msg, ok := cutField(body, "message")
	if !ok {
		return "", false
	}
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "… (the service's message was cut here)"
	}
	return msg, msg != ""
}

func requestID(h http.Header) string {
	for _, k := range []string{"X-Request-Id", "Request-Id", "X-Oneapi-Request-Id", "X-New-Api-Request-Id"} {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// retryAfter reads Retry-After (seconds or an HTTP date) and OpenAI's
// retry-after-ms.
func retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return clampedDuration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return clampedDuration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// clampedDuration is ns nanoseconds, held at the longest Duration: a
// service's "Retry-After: 1e300" (or "Inf") converted as it is would wrap
// to a negative wait, read as "now".
func clampedDuration(ns float64) time.Duration {
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// MaxRetryAfter is the longest wait a service's Retry-After is taken at
// its word for; beyond it (277 hours, 73 years) the hint says "later".
const MaxRetryAfter = time.Hour

// Causes set on a request's context, so a deadline is told apart from the
// user's cancel.
var (
	errFirstByte = errors.New("no answer from the service in time")
	errOverall   = errors.New("the request ran past its time limit")
	errIdle      = errors.New("the service stopped sending: the stream stayed open with nothing usable arriving")
)

// classifyTransport turns an error with no HTTP answer into an Error.
func classifyTransport(ctx context.Context, err error, model string) *Error {
	e := &Error{Err: err}
	if transportInWords(e, err) {
		return e
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, errIdle):
		e.Kind = KindTimeout
		e.Message = cause.Error()
		e.Hint = catalogue.T("The stream had begun, then only kept the connection open (or trickled) without sending anything usable. The service may have charged for it: check the account's usage before trying again; if it keeps happening through this gateway, turn streaming off for this profile.")
		return e
	case errors.Is(cause, errFirstByte) || errors.Is(cause, errOverall):
		e.Kind = KindTimeout
		e.Message = cause.Error()
	case errors.Is(err, context.Canceled) || errors.Is(cause, context.Canceled):
		e.Kind = KindCancelled
		e.Message = "cancelled"
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(cause, context.DeadlineExceeded) || isTimeout(err):
		e.Kind = KindTimeout
		e.Message = catalogue.T("the request timed out")
	default:
		e.Kind = KindNetwork
	}
	e.Hint = hintFor(e, model)
	return e
}

// transportInWords sets e for the transport failures that have words of
// their own, and reports whether err was one.
func transportInWords(e *Error, err error) bool {
	var redirect *RedirectError
	switch {
	case errors.As(err, &redirect):
		e.Kind = KindBadResponse
		e.Message = redirect.Error()
		e.Hint = catalogue.T("If the service has moved, put its new address in the profile's base URL; otherwise ask its operator why it redirects.")
		if redirect.Loop {
			e.Hint = catalogue.T("The service sends the request round in a loop, so no model saw it and nothing was charged: check the profile's base URL (its path, http or https), or ask the service's operator.")
		}
	case errors.Is(err, ErrForbiddenAddress):
		e.Kind = KindBadResponse
		e.Message = catalogue.F("the service linked the image to an address Easel does not fetch from (%v)", err)
		e.Hint = catalogue.T("The answer may come from a misconfigured or hostile server: check the profile's base URL.")
	case isCertificateError(err):
		e.Kind = KindNetwork
		e.Message = catalogue.F("the service's certificate is not trusted on this system (%s)", certificateProblem(err))
		e.Hint = catalogue.T("If this is a company gateway or a server with a certificate of its own, add its certificate authority to this system's trusted certificates and start Easel again; Easel never skips the check.")
	case strings.Contains(err.Error(), "malformed HTTP"):
		e.Kind = KindBadResponse
		e.Message = catalogue.T("the service answered with something that is not an HTTP answer")
		e.Hint = catalogue.T("Check the base URL's scheme and port: an https service asked over http, or another program listening on that port.")
	case strings.Contains(err.Error(), "response headers exceeded"):
		e.Kind = KindBadResponse
		e.Message = catalogue.T("the service's answer headers went on without end")
		e.Hint = catalogue.T("The service, or a proxy between, is broken or hostile: check the base URL, or ask the service's operator.")
	case strings.Contains(err.Error(), "invalid header field value"):
		e.Kind = KindAuth
		e.Message = catalogue.T("the key holds a line break or another character no key has, so it was not sent")
		e.Hint = catalogue.T("Paste the key again in Settings, without spaces or line breaks.")
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || strings.Contains(err.Error(), "connection reset") || strings.Contains(err.Error(), "forcibly closed"):
		// The service was reached: it (or a proxy between) cut the
		// connection while the request went out. Go's own words
		// ("readfrom tcp …: write: connection reset by peer") say
		// nothing to a designer (#53). brokeAfterSending rewords it when
		// the whole request had gone.
		e.Kind = KindNetwork
		e.Message = catalogue.T("the service, or a proxy between, cut the connection while the request was being sent")
		e.Hint = catalogue.T("The request did not reach the service whole, so nothing was charged: try again. If it happens each time with large references, a proxy may limit how much it takes; send fewer or smaller images.")
	default:
		return false
	}
	return true
}

// brokeAfterSending marks a connection failure that came after the whole
// request was written: the service was reached and may be at work on it,
// so "could not reach the service" would be untrue and a retry may pay
// twice.
func brokeAfterSending(e *Error) {
	if r := (*RedirectError)(nil); errors.As(e.Err, &r) {
		return // answered with a redirect Easel did not follow: no model saw it
	}
	e.Reached = true
	if e.Kind != KindNetwork {
		return
	}
	e.Message = catalogue.T("the connection broke after the request was sent, before the service's answer was complete")
	e.Hint = catalogue.T("The request reached the service, which may be at work on it and charge for it: check the account's usage before trying again. If it keeps happening, a proxy or the network between is cutting the connection.")
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// badResponse is an answer that arrived but cannot be used.
func badResponse(msg string, err error, header http.Header) *Error {
	e := &Error{Kind: KindBadResponse, Message: msg, Err: err, RequestID: requestID(header)}
	e.Hint = hintFor(e, "")
	if enc := compressedAs(header); enc != "" {
		// Easel asks for no compression (Go's client undoes the gzip it
		// asks for itself): an answer compressed otherwise, brotli most
		// often, is a proxy's doing, and its bytes read as garbage.
		e.Message = catalogue.F("the answer is compressed as %q, which Easel did not ask for and cannot read", enc)
		e.Hint = catalogue.T("A proxy or gateway between compressed the service's answer on its own (brotli, most often): ask its operator to send answers uncompressed or as gzip, or use another route to the service.")
	}
	return e
}

// compressedAs is an answer's Content-Encoding when it is one Easel's
// client did not undo, "" otherwise.
func compressedAs(h http.Header) string {
	enc := strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding")))
	if enc == "" || enc == "identity" {
		return ""
	}
	return Clean(enc, false)
}

// isCertificateError reports a TLS failure of the service's certificate.
func isCertificateError(err error) bool {
	var ua x509.UnknownAuthorityError
	var ci x509.CertificateInvalidError
	var hn x509.HostnameError
	var ve *tls.CertificateVerificationError
	return errors.As(err, &ua) || errors.As(err, &ci) || errors.As(err, &hn) || errors.As(err, &ve)
}

// certificateProblem says in words what is wrong with the certificate.
func certificateProblem(err error) string {
	var hn x509.HostnameError
	var ci x509.CertificateInvalidError
	switch {
	case errors.As(err, &hn):
		return catalogue.T("it was issued for another name")
	case errors.As(err, &ci) && ci.Reason == x509.Expired:
		return catalogue.T("it has expired or is not yet valid")
	case errors.As(err, &ci):
		return catalogue.T("it is not valid for this use")
	}
	return catalogue.T("it is signed by an authority this system does not know")
}
