package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// #54: one-api's and new-api's refusals, as their middleware sends them
// (abortWithMessage: the status, and an error object whose message is
// the gateway's words), each read by its meaning with its advice.
func TestTheGatewaysRefusalsAreReadByTheirMeaning(t *testing.T) {
	for _, tc := range []struct {
		name    string
		status  int
		message string
		kind    Kind
		advice  string
	}{
		{"one-api: the key may not use the model", 403, "该令牌无权使用模型：gpt-image-1", KindNoAccess, "may not use"},
		{"one-api: the key's quota is used up", 401, "令牌 studio（#12）额度已用尽", KindInsufficientBalance, "spending limit is used up"},
		{"one-api: the key's remaining quota is used up", 401, "该令牌额度已用尽", KindInsufficientBalance, "spending limit is used up"},
		{"one-api: the key expired", 401, "该令牌已过期", KindAuth, "expired or was switched off"},
		{"one-api: the key is disabled", 401, "该令牌状态不可用", KindAuth, "expired or was switched off"},
		{"one-api: the account is empty", 403, "用户额度不足", KindInsufficientBalance, "account"},
		{"new-api: the account is empty", 403, "user quota is not enough", KindInsufficientBalance, "account"},
		{"new-api: the key may not use the model", 403, "This token has no access to model gpt-image-1", KindNoAccess, "may not use"},
	} {
		body := fmt.Sprintf(`{"error":{"message":%q,"type":"one_api_error"}}`, tc.message)
		e := classifyHTTP(tc.status, http.Header{}, []byte(body), "gpt-image-1")
		if e.Kind != tc.kind || !strings.Contains(e.Hint, tc.advice) || e.Message != tc.message {
			t.Errorf("%s: kind %v hint %q message %q; want %v, advice with %q, the gateway's words as they came", tc.name, e.Kind, e.Hint, e.Message, tc.kind, tc.advice)
		}
	}
}

// #53: new-api's 403 for a model it has no price for, with a message
// longer than Easel reads of an error, read "a body that is not text …
// the key was refused": the cut fell inside a Chinese character. The
// cut JSON is read as far as it goes: its code, its message, its meaning.
func TestALongRefusalCutMidCharacterIsStillRead(t *testing.T) {
	long := strings.Repeat("模型 gpt-image-1 倍率或价格未配置，请联系管理员设置或开始自用模式；", 3000)
	body := []byte(fmt.Sprintf(`{"error":{"code":"model_price_error","type":"new_api_error","message":%q}}`, long))
	n := MaxErrorBody
	for utf8.Valid(body[:n]) {
		n-- // cut inside a character, as the read limit may
	}
	e := classifyHTTP(403, http.Header{}, body[:n], "gpt-image-1")
	if e.Kind != KindNoAccess || !strings.Contains(e.Hint, "no price set") || strings.Contains(e.Message, "not text") || !strings.HasPrefix(e.Message, "模型 gpt-image-1") {
		t.Errorf("kind %v hint %q message %.80q", e.Kind, e.Hint, e.Message)
	}
}

// #53: an error object inside a 200 answer was said as the service
// failing ("try again") and learnt as a refusal, so the next run was
// stopped. One that names what it refused is a refusal, said as one; one
// that does not is the service failing, and nothing is learnt of it.
func TestAnErrorInsideA200IsSaidAsWhatItIs(t *testing.T) {
	resp := &http.Response{Header: http.Header{}}
	c := &Client{}
	refused := c.streamError(resp, []byte(`{"message":"Invalid value for quality: 'xhigh'","param":"quality","code":"invalid_value"}`), "gpt-image-1")
	if refused.Kind != KindInvalidRequest || !strings.Contains(refused.Hint, "refused") {
		t.Errorf("a named refusal: %v %q", refused.Kind, refused.Hint)
	}
	failed := c.streamError(resp, []byte(`{"message":"The image could not be finished for 'xhigh' quality: upstream error","type":"server_error"}`), "gpt-image-1")
	if failed.Kind != KindServer {
		t.Errorf("a failure: %v %q", failed.Kind, failed.Hint)
	}
}

// #53: a connection reset mid-upload printed Go's own words ("readfrom
// tcp …: write: connection reset by peer") under "Could not reach the
// service". It is said in words, as a cut that charged nothing.
func TestAResetMidUploadIsSaidInWords(t *testing.T) {
	err := fmt.Errorf("Post \"https://gw.example/v1/images/edits\": readfrom tcp 10.0.0.2:50312->10.0.0.9:443: write: %w", syscall.ECONNRESET)
	e := classifyTransport(context.Background(), err, "gpt-image-1")
	if e.Kind != KindNetwork || strings.Contains(e.Line(), "readfrom") || strings.Contains(e.Line(), "Could not reach") || !strings.Contains(e.Hint, "nothing was charged") {
		t.Errorf("kind %v line %q", e.Kind, e.Line())
	}
}
