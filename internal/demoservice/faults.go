package demoservice

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Faults are chosen per request, by the header FaultHeader or by asking
// for the model "fault-NAME", so a test or a demo user can trigger each.
const (
	FaultHeader      = "X-Easel-Fault"
	faultModelPrefix = "fault-"
)

// The faults the fake can inject.
const (
	FaultInvalidSize    = "invalid-size"
	FaultUnauthorized   = "unauthorized"
	FaultNoAccess       = "no-access"
	FaultModelNotFound  = "model-not-found"
	FaultNoBalance      = "no-balance"
	FaultRateLimit      = "rate-limit"
	FaultServerError    = "server-error"
	FaultBadGatewayHTML = "bad-gateway-html"
	FaultSlowFirstByte  = "slow-first-byte"
	FaultCutStream      = "cut-stream"
	FaultStreamError    = "stream-error"
	FaultBadBase64      = "bad-base64"
	FaultNotImage       = "not-image"
	FaultTruncatedJSON  = "truncated-json"
	FaultJSONForStream  = "json-for-stream"
	FaultNotImplemented = "not-implemented"
	// FaultRateLimitOnce answers 429 with Retry-After: 1 to the first
	// request for a prompt, then serves it.
	FaultRateLimitOnce = "rate-limit-once"
	// FaultNoImages refuses a chat message with images, as a model
	// that does not see images does.
	FaultNoImages = "no-images"
)

// Faults lists every fault, for documentation and tests.
var Faults = []string{
	FaultInvalidSize, FaultUnauthorized, FaultNoAccess, FaultModelNotFound, FaultNoBalance,
	FaultRateLimit, FaultServerError, FaultBadGatewayHTML, FaultSlowFirstByte, FaultCutStream,
	FaultStreamError, FaultBadBase64, FaultNotImage, FaultTruncatedJSON, FaultJSONForStream,
	FaultNotImplemented, FaultRateLimitOnce, FaultNoImages,
	FaultModelPrice, FaultNotInGroup, FaultUpstreamKey, FaultKeyQuota, FaultKeyQuotaChinese,
	FaultNoChannelChinese, FaultUpstreamHTML, FaultBudget, FaultNoAccounts,
}

// RetryAfterSeconds is what the rate-limit fault asks the client to wait.
const RetryAfterSeconds = 30

func faultOf(r *http.Request, model string) string {
	if f := r.Header.Get(FaultHeader); f != "" {
		return f
	}
	if name, ok := strings.CutPrefix(model, faultModelPrefix); ok {
		return name
	}
	return ""
}

// commonFault answers the faults that look the same on every endpoint.
// It returns true when it has answered.
func (s *Server) commonFault(w http.ResponseWriter, r *http.Request, fault, model string) bool {
	if gatewayFault(w, fault, model) {
		return true
	}
	switch fault {
	case FaultInvalidSize:
		writeError(w, http.StatusBadRequest, "Invalid value for 'size': must be one of 1024x1024, 1536x1024, 1024x1536, or auto.", "invalid_request_error", "size", "invalid_size")
	case FaultUnauthorized:
		writeError(w, http.StatusUnauthorized, "Incorrect API key provided. You can find your API key in your account settings.", "invalid_request_error", "", "invalid_api_key")
	case FaultNoAccess:
		writeError(w, http.StatusForbidden, fmt.Sprintf("This token has no access to model %s", model), "new_api_error", "", "")
	case FaultModelNotFound:
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("No available channel for model %s under group default (distributor)", model), "new_api_error", "", "model_not_found")
	case FaultNoBalance:
		writeError(w, http.StatusForbidden, "用户额度不足, 剩余额度: ＄0.000000", "new_api_error", "", "insufficient_user_quota")
	case FaultRateLimit:
		if !s.has(QuirkDropsRetryAfter) {
			w.Header().Set("Retry-After", strconv.Itoa(RetryAfterSeconds))
		}
		writeError(w, http.StatusTooManyRequests, "Rate limit reached for requests per min. Please try again in 30s.", "requests", "", "rate_limit_exceeded")
	case FaultServerError:
		writeError(w, http.StatusInternalServerError, "The server had an error while processing your request. Sorry about that!", "server_error", "", "")
	case FaultNotImplemented:
		writeError(w, http.StatusNotImplemented, "API not implemented", "one_api_error", "", "api_not_implemented")
	case FaultBadGatewayHTML:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n")
	case FaultRateLimitOnce:
		if !s.firstTime(r.URL.Path + "\x00" + model) {
			return false
		}
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "Rate limit reached for requests per min. Please try again in 1s.", "requests", "", "rate_limit_exceeded")
	case FaultSlowFirstByte:
		if !sleep(r.Context(), s.cfg.SlowFirstByte) {
			return true
		}
		return false // then answer normally
	default:
		return false
	}
	return true
}

// abort drops the connection mid-answer, as a crashing proxy does.
func abort(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	panic(http.ErrAbortHandler)
}

// firstTime reports whether key is seen for the first time.
func (s *Server) firstTime(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[key] {
		return false
	}
	s.seen[key] = true
	return true
}
