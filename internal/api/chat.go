package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
)

// Chat sends a conversation and returns the reply. With Stream set,
// onDelta (which may be nil) receives each piece of text as it arrives,
// so a caller can save and show it as it streams; the returned result
// holds the whole text even if the stream failed midway (with the error).
func (c *Client) Chat(ctx context.Context, req ChatRequest, onDelta func(string)) (res *ChatResult, err error) {
	defer func() {
		fitTimeout(err, "chat", req.Stream)
		fitTooLong(err, "chat")
		err = c.scrub.err(err)
		if res != nil {
			res.Content = Clean(c.scrub.redact(res.Content), true)
			res.Reasoning = Clean(c.scrub.redact(res.Reasoning), true)
			res.Model, res.FinishReason = Clean(res.Model, false), Clean(res.FinishReason, false)
			res.RequestID = c.scrub.line(res.RequestID)
		}
	}()
	if onDelta != nil {
		// What is shown as it streams is cleaned piece by piece: an
		// escape sequence split between two pieces loses its ESC, which
		// is what a terminal needs to act on it. The key is redacted
		// across pieces: a piece may hold only part of it.
		show := onDelta
		text := newKeyStream(c.cfg.APIKey, func(d string) { show(Clean(d, true)) })
		onDelta = text.Write
		defer text.Flush()
	}
	if think := req.OnReasoning; think != nil {
		thoughts := newKeyStream(c.cfg.APIKey, think)
		req.OnReasoning = thoughts.Write
		defer thoughts.Flush()
	}
	if strings.TrimSpace(req.Model) == "" {
		return nil, preflight(KindInvalidRequest, "model", catalogue.T("no model is chosen"), catalogue.T("Pick a chat model from the list."))
	}
	if len(req.Messages) == 0 {
		return nil, preflight(KindInvalidRequest, "messages", catalogue.T("there is nothing to send"), catalogue.T("Type a message."))
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
	res = &ChatResult{RequestID: requestID(resp.Header)}
	if isEventStream(resp) {
		err = c.readChatStream(rctx, resp, req.Model, res, onDelta, req.OnReasoning)
	} else {
		err = c.readChatJSON(rctx, resp, req.Model, res, onDelta)
	}
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Kind == KindNetwork && e.Reached {
			// Chat has no streaming switch: say what helps here, and
			// keep nothing that did not arrive.
			// The message already says the connection broke: the hint
			// says what is left and what to do, not that again.
			e.Hint = catalogue.T("What arrived of the reply is kept. Ask again; if it keeps happening with long replies, a proxy or gateway between may be cutting them.")
			if strings.TrimSpace(res.Content) == "" && strings.TrimSpace(res.Reasoning) == "" {
				e.Hint = catalogue.T("None of the reply had arrived. Ask again; if it keeps happening, a proxy or gateway between may be cutting the connection.")
			}
		}
		return res, err
	}
	if strings.TrimSpace(res.Content) == "" && strings.TrimSpace(res.Reasoning) == "" {
		// Only [DONE], only empty events: nothing came back, which is a
		// failure to say, not an empty success.
		e := &Error{Kind: KindBadResponse, Message: catalogue.T("the reply was empty: the service sent no text"), RequestID: requestID(resp.Header)}
		e.Hint = hintFor(e, req.Model)
		return res, e
	}
	if strings.TrimSpace(res.Content) == "" {
		// A thinking model that spent its turn thinking: the reasoning is
		// kept, but there is no reply to print or use.
		e := &Error{Kind: KindBadResponse, Message: catalogue.T("the model sent only its reasoning, no reply"), RequestID: requestID(resp.Header),
			Hint: catalogue.T("The model thought but did not answer (often its token limit ran out while thinking): ask again, raise the max tokens, or pick a model that does not think first.")}
		return res, e
	}
	return res, nil
}

func (c *Client) readChatJSON(ctx context.Context, resp *http.Response, model string, res *ChatResult, onDelta func(string)) error {
	if isWebPage(resp) {
		return webPage(resp)
	}
	body, err := readBody(resp.Body, resp.ContentLength, c.limitFor("chat/completions"))
	if err != nil {
		return c.readErr(ctx, err, model)
	}
	if !gjson.ValidBytes(body) {
		return badResponse(catalogue.T("the answer is not complete JSON"), nil, resp.Header)
	}
	root := gjson.ParseBytes(body)
	if e := root.Get("error"); e.Exists() && e.Type != gjson.Null {
		return c.streamError(resp, []byte(e.Raw), model)
	}
	choice := root.Get("choices.0")
	if !choice.Exists() {
		return badResponse(catalogue.T("the answer holds no reply"), nil, resp.Header)
	}
	res.Content = choice.Get("message.content").String()
	res.Reasoning = choice.Get("message.reasoning_content").String()
	res.FinishReason = choice.Get("finish_reason").String()
	res.Model = root.Get("model").String()
	res.Usage = usageFrom(root.Get("usage"))
	if onDelta != nil && res.Content != "" {
		onDelta(res.Content)
	}
	return nil
}

func (c *Client) readChatStream(ctx context.Context, resp *http.Response, model string, res *ChatResult, onDelta, onReasoning func(string)) error {
	events := newSSEReader(resp.Body, c.limitFor("chat/completions"))
	var text, thinking strings.Builder
	defer func() { res.Content, res.Reasoning = text.String(), thinking.String() }()
	done := false
	for {
		data, ok := events.event(ctx)
		if !ok {
			break
		}
		if string(data) == "[DONE]" {
			done = true
			break
		}
		if !gjson.ValidBytes(data) {
			return badResponse(catalogue.T("a stream event is not valid JSON"), nil, resp.Header)
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
		// Thinking models stream their reasoning apart from the reply
		// (gateways name it reasoning_content): kept apart, never mixed in.
		if r := choice.Get("delta.reasoning_content").String(); r != "" {
			thinking.WriteString(r)
			if onReasoning != nil {
				onReasoning(Clean(r, true))
			}
		}
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
	if res.FinishReason == "" {
		// A model always says why it stopped. Gateways (new-api) close a
		// stream whose upstream broke with their own usage chunk and
		// [DONE], so [DONE] alone proves nothing: without a finish
		// reason the reply may be cut, whatever closed the stream.
		msg := catalogue.T("the reply may be cut off: the stream ended without the model saying it had finished")
		if !done {
			msg = catalogue.T("the reply stopped before it was finished: the connection closed mid-reply")
		}
		e := &Error{Kind: KindCutOff, Message: msg, RequestID: requestID(resp.Header)}
		e.Hint = hintFor(e, model)
		return e
	}
	return nil
}
