package demoservice

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"easel/internal/catalogue"
)

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Stream        bool `json:"stream"`
		MaxTokens     *int `json:"max_tokens"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 8<<20)).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", "", "")
		return
	}
	fault := faultOf(r, body.Model)
	if fault != "" && s.commonFault(w, r, fault, body.Model) {
		return
	}
	if !s.checkModel(w, r, body.Model) {
		return
	}
	if len(body.Messages) == 0 {
		writeError(w, http.StatusBadRequest, "Missing required parameter: 'messages'.", "invalid_request_error", "messages", "")
		return
	}
	last, images := "", 0
	for _, m := range body.Messages {
		if m.Role != "user" {
			continue
		}
		text, n := content(m.Content)
		last, images = text, n
	}
	if images > 0 && fault == FaultNoImages {
		writeError(w, http.StatusBadRequest, "Invalid content type. image_url is only supported by certain models.", "invalid_request_error", "messages", "")
		return
	}
	answer := reply(last)
	if images > 0 {
		answer = catalogue.N("I see %d images. ", images, images) + answer
	}
	words := streamPieces(answer)
	// A thinking model streams its reasoning first, apart from the reply.
	var thoughts []string
	if strings.Contains(body.Model, "reasoner") {
		thoughts = streamPieces(catalogue.T("The user wants directions for an image; list three distinct looks."))
	}
	finish := "stop"
	if body.MaxTokens != nil && *body.MaxTokens < len(words) {
		words, finish = words[:max(0, *body.MaxTokens)], "length"
	}
	id := fmt.Sprintf("chatcmpl-fake%d", time.Now().UnixNano())
	if !body.Stream || fault == FaultJSONForStream {
		if fault == FaultTruncatedJSON {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"%s","object":"chat.completion","choices":[{"index":0,"message":{"role":"assist`, id)
			return
		}
		writeJSON(w, map[string]any{
			"id": id, "object": "chat.completion", "created": time.Now().Unix(), "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": nil,
				"message": map[string]any{"role": "assistant", "content": strings.Join(words, ""), "refusal": nil}}},
			"usage": s.chatUsage(body.Model, len(last)/4+1, len(words)),
		})
		return
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	send := func(v any) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", data)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": body.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	for i, thought := range thoughts {
		if !sleep(r.Context(), s.cfg.Pace/20) {
			return
		}
		delta := map[string]any{"reasoning_content": thought, "content": nil}
		if i == 0 {
			delta["role"] = "assistant"
		}
		send(chunk(delta, nil))
	}
	for i, word := range words {
		if !sleep(r.Context(), s.cfg.Pace/20) {
			return
		}
		if i == len(words)/2 {
			if s.has(QuirkCutChat) {
				// The upstream broke here; the gateway ends the stream
				// as if the reply were whole: its usage, then [DONE].
				send(map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": body.Model, "choices": []any{},
					"usage": s.chatUsage(body.Model, len(last)/4+1, i)})
				fmt.Fprint(w, "data: [DONE]\n\n")
				return
			}
			switch fault {
			case FaultStreamError:
				send(map[string]any{"error": map[string]any{"message": "upstream error while generating", "type": "server_error", "code": "upstream_error", "param": nil}})
				return
			case FaultCutStream:
				abort(w)
			}
		}
		delta := map[string]any{"content": word}
		if i == 0 {
			delta["role"] = "assistant"
		}
		send(chunk(delta, nil))
	}
	send(chunk(map[string]any{}, finish))
	if body.StreamOptions.IncludeUsage {
		// As OpenAI does: a last chunk with no choices and the usage.
		send(map[string]any{"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": body.Model, "choices": []any{},
			"usage": s.chatUsage(body.Model, len(last)/4+1, len(words))})
	} else {
		s.chatUsage(body.Model, len(last)/4+1, len(words)) // billed all the same
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// content is a message's text and how many images it carries: a string,
// or content parts (text and image_url).
func content(c any) (string, int) {
	switch c := c.(type) {
	case string:
		return c, 0
	case []any:
		var text []string
		images := 0
		for _, p := range c {
			part, _ := p.(map[string]any)
			switch part["type"] {
			case "text":
				t, _ := part["text"].(string)
				text = append(text, t)
			case "image_url":
				images++
			}
		}
		return strings.Join(text, "\n"), images
	}
	return "", 0
}

// reply is the demo's answer: markdown, so the chat's rendering shows.
func reply(user string) string {
	if r := []rune(user); len(r) > 160 {
		user = string(r[:160]) + "…"
	}
	// One message, so a translation keeps the markdown whole: the demo
	// answers in the language Easel speaks.
	return catalogue.F("**Demo reply.** You wrote: “%[1]s”\n\nThree directions a designer might try:\n\n1. *Warm palette* — amber light, soft shadows, a low sun.\n2. *Graphic* — flat shapes, two colours, generous negative space.\n3. *Editorial* — a close crop, film grain, muted tones.\n\n| Direction | Palette | Light |\n|---|---|---|\n| Warm | amber, rust | golden hour |\n| Graphic | two flat colours | even |\n| Editorial | muted greys | soft window light |\n\nA prompt to start from:\n\n```\n%[1]s, warm palette of amber and rust, soft golden-hour light, low sun, gentle shadows, wide composition with generous negative space, high detail, no text\n```\n\nThis answer comes from Easel's built-in demo service; connect a real service in Settings.", user)
}

// chatUsage is a reply's usage as the service reports it, charged to the
// account.
func (s *Server) chatUsage(model string, prompt, completion int) map[string]any {
	u := map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
	s.books.charge(model, u)
	return u
}

// streamPieces cuts a reply into the pieces a stream sends: words, and
// text without spaces (Chinese) a few characters at a time.
func streamPieces(answer string) []string {
	var out []string
	for _, w := range strings.SplitAfter(answer, " ") {
		r := []rune(w)
		for len(r) > 6 {
			out, r = append(out, string(r[:4])), r[4:]
		}
		out = append(out, string(r))
	}
	return out
}
