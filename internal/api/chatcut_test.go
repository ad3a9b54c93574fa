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
// arrived is kept" (issue 40, item 11); one cut after some text does.
func TestACutChatSaysWhetherAnythingArrived(t *testing.T) {
	for _, tc := range []struct {
		name, sent, want string
	}{
		{"nothing", "", "before any of the reply arrived"},
		{"some", `data: {"choices":[{"index":0,"delta":{"content":"Three layouts"}}]}` + "\n\n", "what arrived is kept"},
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
			if !strings.Contains(e.Hint, tc.want) {
				t.Errorf("hint %q, want %q", e.Hint, tc.want)
			}
		})
	}
}
