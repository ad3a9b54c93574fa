package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/demoservice"
)

// Images go with a user's text as content parts (text, then image_url
// data URLs); a stream asks for its usage, and a thinking model's
// reasoning arrives apart from the reply.
func TestChatSendsImagesAsContentPartsAndGetsUsage(t *testing.T) {
	var body []byte
	srv := demoservice.New(demoservice.Config{Key: "sk-test"})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(body)))
		}
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-test"})
	png := []byte("\x89PNG\r\n\x1a\n....")
	var thinking, reply strings.Builder
	res, err := c.Chat(context.Background(), api.ChatRequest{Model: "deepseek-reasoner", Stream: true, IncludeUsage: true,
		OnReasoning: func(s string) { thinking.WriteString(s) },
		Messages: []api.Message{{Role: api.RoleSystem, Content: "be brief"},
			{Role: api.RoleUser, Content: "what is in these?", Images: []api.InputImage{{Name: "a.png", ContentType: "image/png", Data: png}, {Name: "b.png", Data: png}}}}},
		func(s string) { reply.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	var system string
	if json.Unmarshal(sent.Messages[0].Content, &system) != nil || system != "be brief" {
		t.Errorf("the system message is %s, want a plain string", sent.Messages[0].Content)
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(sent.Messages[1].Content, &parts); err != nil || len(parts) != 3 {
		t.Fatalf("the user's content is %s, want three parts", sent.Messages[1].Content)
	}
	if parts[0].Type != "text" || parts[0].Text != "what is in these?" || parts[1].Type != "image_url" ||
		!strings.HasPrefix(parts[1].ImageURL.URL, "data:image/png;base64,") || !strings.HasPrefix(parts[2].ImageURL.URL, "data:image/png;base64,") {
		t.Errorf("parts %+v", parts)
	}
	if !sent.StreamOptions.IncludeUsage {
		t.Error("the stream did not ask for its usage")
	}
	if res.Usage == nil || res.Usage.OutputTokens == 0 {
		t.Errorf("no usage in the result: %+v", res.Usage)
	}
	if !strings.HasPrefix(reply.String(), "I see 2 images.") || thinking.Len() == 0 || strings.Contains(reply.String(), thinking.String()) {
		t.Errorf("reply %q, thinking %q: want them apart", reply.String(), thinking.String())
	}
}

// A model that takes no images is named as such, with what to do.
func TestAModelWithoutImagesIsExplained(t *testing.T) {
	c, _, _ := newFake(t, demoservice.Config{})
	_, err := c.Chat(context.Background(), api.ChatRequest{Model: "fault-" + demoservice.FaultNoImages,
		Messages: []api.Message{{Role: api.RoleUser, Content: "look", Images: []api.InputImage{{Name: "a.png", Data: []byte("\x89PNG\r\n\x1a\n")}}}}}, nil)
	e := asAPIError(t, err)
	if e.Kind != api.KindNoImages || !strings.Contains(e.Hint, "without them") {
		t.Errorf("%v (%v): %s", e.Kind, e, e.Hint)
	}
}
