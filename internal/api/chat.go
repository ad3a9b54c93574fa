package api

import (
	"bytes"
	"context"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"
)

// Chat sends a conversation and returns the reply. With Stream set,
// onDelta (which may be nil) receives each piece of text as it arrives,
// so a caller can save and show it as it streams; the returned result
// holds the whole text even if the stream failed midway (with the error).
func (c *Client) Chat(ctx context.Context, req ChatRequest, onDelta func(string)) (*ChatResult, error) {
	if strings.TrimSpace(req.Model) == "" {
		return nil, preflight(KindInvalidRequest, "model", "no model is chosen", "Pick a chat model from the list.")
	}
	if len(req.Messages) == 0 {
		return nil, preflight(KindInvalidRequest, "messages", "there is nothing to send", "Type a message.")
	}
	r, err := jsonRequest("chat/completions", newChatBody(req))
	if err != nil {
		return nil, err
	}
	r.model, r.stream, r.overall, r.firstByte = req.Model, req.Stream, c.cfg.ChatTimeout, c.cfg.FirstByteTimeout
	resp, rctx, cancel, err := c.call(ctx, r)
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
	events := newSSEReader(resp.Body, c.cfg.MaxResponse)
	var text strings.Builder
	defer func() { res.Content = text.String() }()
	done := false
	for {
		data, ok := events.next()
		if !ok {
			break
		}
		data = bytes.TrimSpace(data)
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
	if events.err != nil {
		return c.readErr(ctx, events.err, model)
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
