package api_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"easel/internal/api"
)

// A chat stream cut before any of the reply arrived does not say "what
// arrived is kept" (issue 40, item 11); one cut after some text does;
// neither repeats that the connection broke, which the message says.
func TestACutChatSaysWhetherAnythingArrived(t *testing.T) {
	for _, tc := range []struct {
		name, sent, want string
	}{
		{"nothing", "", "None of the reply had arrived"},
		{"some", `data: {"choices":[{"index":0,"delta":{"content":"Three layouts"}}]}` + "\n\n", "What arrived of the reply is kept"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				_, _ = w.Write([]byte(tc.sent))
				w.(http.Flusher).Flush()
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					conn.Close() // the connection breaks mid-reply
				}
			}))
			defer ts.Close()
			c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-test-key-0123456789"})
			_, err := c.Chat(context.Background(), api.ChatRequest{Model: "gpt-4o-mini", Stream: true,
				Messages: []api.Message{{Role: api.RoleUser, Content: "name three layouts"}}}, nil)
			var e *api.Error
			if !errors.As(err, &e) {
				t.Fatalf("err %v", err)
			}
			if !strings.Contains(e.Hint, tc.want) || strings.Contains(strings.ToLower(e.Hint), "connection broke") {
				t.Errorf("hint %q under %q, want %q and no repeat", e.Hint, e.Message, tc.want)
			}
		})
	}
}

// A card's title never contradicts the hint under it (issue 40, item
// 11): a key's own limit is not "Insufficient balance", a model the
// key's group lacks is not "Unknown model".
func TestTitlesAgreeWithTheirHints(t *testing.T) {
	for _, tc := range []struct {
		status        int
		body, want    string
		notWant, hint string
	}{
		{403, `{"error":{"message":"该令牌额度已用尽","type":"new_api_error","code":"pre_consume_token_quota_failed"}}`, "This key's limit is used up", "Insufficient balance", "own spending limit"},
		{503, `{"error":{"message":"No available channel for model gpt-image-1 under group default (distributor)","type":"new_api_error","code":"model_not_found"}}`, "Not offered to the group default", "Unknown model", "group"},
	} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(tc.status)
			_, _ = w.Write([]byte(tc.body))
		}))
		c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-test-key-0123456789"})
		_, err := c.Generate(context.Background(), api.GenerateRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}}, nil)
		ts.Close()
		var e *api.Error
		if !errors.As(err, &e) {
			t.Fatalf("err %v", err)
		}
		if e.Title() != tc.want || !strings.Contains(e.Hint, tc.hint) {
			t.Errorf("title %q over %q, want %q", e.Title(), e.Hint, tc.want)
		}
	}
}

// An answer compressed as brotli by a proxy is named as such, not as
// "not complete JSON" (issue 41, words).
func TestABrotliAnswerIsNamed(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "br")
		_, _ = w.Write([]byte{0x1b, 0x2f, 0x00, 0xf8, 0xa5, 0x40, 0x62, 0x3f, 0x00})
	}))
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-test-key-0123456789"})
	_, err := c.Generate(context.Background(), api.GenerateRequest{Prompt: "p", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}}, nil)
	var e *api.Error
	if !errors.As(err, &e) {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(e.Message, `"br"`) || !strings.Contains(e.Hint, "brotli") {
		t.Errorf("err %v (hint %q)", err, e.Hint)
	}
}
