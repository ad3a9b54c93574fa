package api

import (
	"net/http"
	"strings"
	"testing"
)

// Gateways' real answers, classified by status and code first.
func TestClassifyGatewayAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		want   Kind
	}{
		{"openai bad key", 401, `{"error":{"message":"Incorrect API key provided: sk-abc***xyz.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, KindAuth},
		{"openai quota", 429, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`, KindInsufficientBalance},
		{"credit exhausted", 429, `{"error":{"message":"Credit balance exhausted","code":"credit_balance_exhausted"}}`, KindInsufficientBalance},
		{"rate limit", 429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, KindRateLimited},
		{"new-api no channel", 503, `{"error":{"message":"No available channel for model gpt-image-9 under group default","type":"new_api_error","code":"model_not_found"}}`, KindUnknownModel},
		{"new-api no access", 403, `{"error":{"message":"This token has no access to model gpt-image-1","type":"new_api_error"}}`, KindNoAccess},
		{"new-api quota chinese", 403, `{"error":{"message":"用户额度不足, 剩余额度: $0.00","type":"new_api_error","code":"insufficient_user_quota"}}`, KindInsufficientBalance},
		{"quota chinese no code", 403, `{"error":{"message":"用户额度不足","type":"new_api_error"}}`, KindInsufficientBalance},
		{"one-api not implemented", 501, `{"error":{"message":"API not implemented","type":"one_api_error","code":"api_not_implemented"}}`, KindServer},
		{"openai model 404", 404, `{"error":{"message":"The model 'gpt-x' does not exist","type":"invalid_request_error","code":"model_not_found"}}`, KindUnknownModel},
		{"bad size param", 400, `{"error":{"message":"Invalid value","type":"invalid_request_error","param":"size","code":null}}`, KindInvalidSize},
		{"bad image", 400, `{"error":{"message":"Invalid image file","type":"invalid_request_error","param":"image","code":"invalid_image_format"}}`, KindInvalidImage},
		{"other param", 400, `{"error":{"message":"Unknown parameter","type":"invalid_request_error","param":"style","code":"unknown_parameter"}}`, KindInvalidRequest},
		{"numeric code", 400, `{"error":{"message":"bad","type":"x","code":400}}`, KindInvalidRequest},
		{"html 502", 502, `<html><body>502 Bad Gateway</body></html>`, KindServer},
		{"gateway timeout", 504, ``, KindTimeout},
		{"bare message", 402, `{"message":"Payment required"}`, KindInsufficientBalance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := classifyHTTP(tc.status, http.Header{"X-Request-Id": {"req_1"}}, []byte(tc.body), "gpt-image-1")
			if e.Kind != tc.want {
				t.Errorf("kind %q, want %q", e.Kind, tc.want)
			}
			if e.Hint == "" || e.RequestID != "req_1" || e.Status != tc.status {
				t.Errorf("hint %q request %q status %d", e.Hint, e.RequestID, e.Status)
			}
			if strings.Contains(e.Message, "<html") {
				t.Errorf("message pastes the HTML page: %q", e.Message)
			}
		})
	}
}

func TestRetryAfterForms(t *testing.T) {
	if d := retryAfter(http.Header{"Retry-After": {"12"}}); d.Seconds() != 12 {
		t.Errorf("seconds: %v", d)
	}
	if d := retryAfter(http.Header{"Retry-After-Ms": {"1500"}}); d.Milliseconds() != 1500 {
		t.Errorf("ms: %v", d)
	}
	if d := retryAfter(http.Header{}); d != 0 {
		t.Errorf("none: %v", d)
	}
}

func TestRedactRemovesEveryRunOfTheKey(t *testing.T) {
	key := "sk-proj-ABCDEFGHIJKLMNOP1234"
	for _, msg := range []string{
		"Incorrect API key provided: " + key,
		"key ends ...IJKLMNOP1234 here",
		"prefix sk-proj-ABCD and more",
	} {
		got := Redact(msg, key)
		for i := 0; i+8 <= len(key); i++ {
			if strings.Contains(got, key[i:i+8]) {
				t.Errorf("Redact(%q) = %q still holds %q", msg, got, key[i:i+8])
			}
		}
	}
	if got := Redact("nothing here", key); got != "nothing here" {
		t.Errorf("changed a clean message: %q", got)
	}
}
