package api

import (
	"bytes"
	"context"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/tidwall/gjson"
)

// Chat sends a conversation and returns the reply. With Stream set,
// onDelta (which may be nil) receives each piece of text as it arrives,
// so a caller can save and show it as it streams; the returned result
// holds the whole text even if the stream failed midway (with the error).
func (c *Client) Chat(ctx context.Context, req ChatRequest, onDelta func(string)) (*ChatResult, error) {
	if strings.TrimSpace(req.Model) == "" {
		return nil, preflight(KindInvalidRequest, "model", "no model chosen", "Pick a chat model from the list.")
	}
	if len(req.Messages) == 0 {
		return nil, preflight(KindInvalidRequest, "messages", "nothing to send", "Type a message.")
	}
	p := openai.ChatCompletionNewParams{Model: openai.ChatModel(req.Model)}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case RoleAssistant:
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Content))
		default:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		}
	}
	if req.Temperature != nil {
		p.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens != nil {
		p.MaxTokens = openai.Int(int64(*req.MaxTokens))
	}
	var opts []option.RequestOption
	if req.Stream {
		opts = append(opts, option.WithJSONSet("stream", true), option.WithHeader("Accept", "text/event-stream"))
	}
	resp, rctx, cancel, err := c.call(ctx, http.MethodPost, "chat/completions", p, req.Model, c.cfg.ChatTimeout, c.cfg.FirstByteTimeout, opts...)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	res := &ChatResult{RequestID: requestID(resp.Header)}
	if isEventStream(resp) {
		err = c.readChatStream(rctx, resp, req.Model, res, onDelta)
	} else {
		err = c.readChatJSON(rctx, resp, req.Model, res, onDelta)
	}
	if err != nil {
		return res, err
	}
	return res, nil
}

func (c *Client) readChatJSON(ctx context.Context, resp *http.Response, model string, res *ChatResult, onDelta func(string)) error {
	body, err := readBody(resp.Body, resp.ContentLength, c.cfg.MaxResponse)
	if err != nil {
		return c.readErr(ctx, err, model)
	}
	if !gjson.ValidBytes(body) {
		return badResponse("the answer is not complete JSON", nil, resp.Header)
	}
	root := gjson.ParseBytes(body)
	if e := root.Get("error"); e.Exists() && e.Type != gjson.Null {
		return c.streamError(resp, []byte(e.Raw), model)
	}
	choice := root.Get("choices.0")
	if !choice.Exists() {
		return badResponse("the answer holds no reply", nil, resp.Header)
	}
	res.Content = choice.Get("message.content").String()
	res.FinishReason = choice.Get("finish_reason").String()
	res.Model = root.Get("model").String()
	res.Usage = usageFrom(root.Get("usage"))
	if onDelta != nil && res.Content != "" {
		onDelta(res.Content)
	}
	return nil
}

func (c *Client) readChatStream(ctx context.Context, resp *http.Response, model string, res *ChatResult, onDelta func(string)) error {
	dec := ssestream.NewDecoder(resp)
	defer dec.Close()
	var text strings.Builder
	defer func() { res.Content = text.String() }()
	done := false
	for dec.Next() {
		data := bytes.TrimSpace(dec.Event().Data)
		if len(data) == 0 {
			continue
		}
		if string(data) == "[DONE]" {
			done = true
			break
		}
		if !gjson.ValidBytes(data) {
			return badResponse("a stream event is not valid JSON", nil, resp.Header)
		}
		ev := gjson.ParseBytes(data)
		if e := ev.Get("error"); e.Exists() && e.Type != gjson.Null {
			return c.streamError(resp, []byte(e.Raw), model)
		}
		if m := ev.Get("model").String(); m != "" {
			res.Model = m
		}
		if u := ev.Get("usage"); u.Exists() && u.Type != gjson.Null {
			res.Usage = usageFrom(u)
		}
		choice := ev.Get("choices.0")
		if d := choice.Get("delta.content").String(); d != "" {
			text.WriteString(d)
			if onDelta != nil {
				onDelta(d)
			}
		}
		if f := choice.Get("finish_reason").String(); f != "" {
			res.FinishReason = f
		}
	}
	if err := dec.Err(); err != nil {
		return c.readErr(ctx, err, model)
	}
	if ctx.Err() != nil {
		return classifyTransport(ctx, ctx.Err(), model)
	}
	if !done && res.FinishReason == "" {
		e := &Error{Kind: KindServer, Message: "the reply stopped before it was finished", RequestID: requestID(resp.Header)}
		e.Hint = hintFor(e, model)
		return e
	}
	return nil
}
