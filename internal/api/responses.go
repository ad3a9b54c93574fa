package api

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
)

// DefaultTurnModel is the text model a turn through the Responses API
// talks to when the profile names no chat model: one OpenAI documents
// with the image tool.
const DefaultTurnModel = "gpt-4.1"

// A turn through the Responses API is one user message (the prompt, and
// the images the service does not hold yet) to a text model made to call
// the image tool, which edits the picture of the answer it continues.
type responsesBody struct {
	Model    string          `json:"model"`
	Input    []responseInput `json:"input"`
	Tools    []imageTool     `json:"tools"`
	Choice   map[string]any  `json:"tool_choice"`
	Previous string          `json:"previous_response_id,omitempty"`
	Store    bool            `json:"store"`
	Stream   bool            `json:"stream,omitempty"`
	// Background runs the response on the service, to be read later
	// (Batches.Render): it survives the connection and the program.
	Background bool `json:"background,omitempty"`
}

type responseInput struct {
	Role    string         `json:"role"`
	Content []responsePart `json:"content"`
}

type responsePart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
}

// imageTool is ImageGenTool with the fields Easel sets.
type imageTool struct {
	Type          string            `json:"type"`
	Model         string            `json:"model,omitempty"`
	Action        string            `json:"action"`
	Size          string            `json:"size,omitempty"`
	Quality       string            `json:"quality,omitempty"`
	Background    string            `json:"background,omitempty"`
	OutputFormat  string            `json:"output_format,omitempty"`
	Compression   *int              `json:"output_compression,omitempty"`
	Moderation    string            `json:"moderation,omitempty"`
	InputFidelity string            `json:"input_fidelity,omitempty"`
	PartialImages int               `json:"partial_images,omitempty"`
	Mask          map[string]string `json:"input_image_mask,omitempty"`
}

// turnRequest is an edit as a Responses API turn. With a Previous answer
// the service holds the picture being edited, so only the other
// references go (and the first too while the route is not known to keep
// what it is given).
func turnRequest(req EditRequest, textModel string) (request, error) {
	t := req.Turn
	if textModel == "" {
		textModel = DefaultTurnModel
	}
	o := req.ImageOptions
	action := "edit"
	if len(req.Images) == 0 {
		action = "generate"
	}
	tool := imageTool{Type: "image_generation", Model: o.Model, Action: action, Size: o.Size, Quality: o.Quality,
		Background: o.Background, OutputFormat: o.OutputFormat, Compression: o.OutputCompression, Moderation: o.Moderation,
		InputFidelity: req.InputFidelity}
	if o.Stream {
		tool.PartialImages = o.PartialImages
	}
	parts := []responsePart{{Type: "input_text", Text: req.Prompt}}
	images := req.Images
	if t.Previous != "" && !t.WithImage && len(images) > 0 {
		images = images[1:]
	}
	for _, img := range images {
		url, err := inline(img)
		if err != nil {
			return request{}, err
		}
		parts = append(parts, responsePart{Type: "input_image", ImageURL: url})
	}
	if req.Mask != nil {
		url, err := inline(*req.Mask)
		if err != nil {
			return request{}, err
		}
		tool.Mask = map[string]string{"image_url": url}
	}
	body := responsesBody{Model: textModel, Input: []responseInput{{Role: "user", Content: parts}}, Tools: []imageTool{tool},
		Choice: map[string]any{"type": "image_generation"}, Previous: t.Previous, Store: true, Stream: o.Stream}
	return jsonRequest("responses", body)
}

// inline is an input image as the data: URL the Responses API takes,
// read from its file when it is sent as it is.
func inline(img InputImage) (string, error) {
	data, err := img.Bytes()
	if err != nil {
		return "", err
	}
	img.Data = data
	return dataURL(img), nil
}

// respond sends an edit as a turn through the Responses API and reads
// its answer, streamed or not, into the same result an Images API edit
// gives, with the answer's id and the id it says it continued.
func (c *Client) respond(ctx context.Context, req EditRequest, onPartial func(Partial)) (*ImageResult, error) {
	r, err := turnRequest(req, c.cfg.TurnModel)
	if err != nil {
		return nil, err
	}
	o := req.ImageOptions
	resp, rctx, cancel, err := c.callImage(ctx, r, o)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	var res *ImageResult
	if isEventStream(resp) {
		res, err = c.readResponseStream(rctx, resp, o, onPartial)
	} else {
		if isWebPage(resp) {
			return nil, webPage(resp)
		}
		var body []byte
		body, err = io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxResponse+1))
		if err == nil && int64(len(body)) > c.cfg.MaxResponse {
			err = &TooLongError{Limit: c.cfg.MaxResponse}
		}
		if err != nil {
			return nil, c.readErr(rctx, err, o.Model)
		}
		if !gjson.ValidBytes(body) {
			return nil, badResponse(catalogue.T("the answer is not complete JSON"), nil, resp.Header)
		}
		root := gjson.ParseBytes(body)
		if e := root.Get("error"); e.Exists() && e.Type != gjson.Null {
			return nil, c.streamError(resp, []byte(e.Raw), o.Model)
		}
		res, err = responseResult(root, resp.Header)
	}
	if err != nil {
		fitTimeout(err, "images", o.Stream)
		return nil, c.scrub.err(err)
	}
	res.RequestID = c.scrub.line(requestID(resp.Header))
	res.Response, res.Continued = c.scrub.short(res.Response, 200), c.scrub.short(res.Continued, 200)
	for i := range res.Images {
		res.Images[i].RevisedPrompt = Clean(c.scrub.redact(res.Images[i].RevisedPrompt), true)
	}
	return res, nil
}

// responseResult reads a whole Response object: its first finished image
// call is the turn's picture (a turn asks for one).
func responseResult(root gjson.Result, header http.Header) (*ImageResult, error) {
	res := &ImageResult{Response: root.Get("id").String(), Continued: root.Get("previous_response_id").String()}
	var call gjson.Result
	root.Get("output").ForEach(func(_, item gjson.Result) bool {
		if item.Get("type").String() == "image_generation_call" && item.Get("result").Type == gjson.String {
			if !call.Exists() {
				call = item
			} else {
				res.Dropped++
			}
		}
		return true
	})
	if !call.Exists() {
		why := catalogue.T("the answer holds no image: the model answered without drawing")
		if text := root.Get(`output.#(type=="message").content.0.text`).String(); text != "" {
			why = catalogue.F("the answer holds no image; the model said: %s", text)
		}
		return nil, badResponse(why, nil, header)
	}
	return res, res.addCall(call, header)
}

// addCall decodes an image_generation_call's picture into res.
func (res *ImageResult) addCall(call gjson.Result, header http.Header) error {
	data, err := base64.StdEncoding.DecodeString(call.Get("result").String())
	if err != nil {
		return badResponse(catalogue.F("the image: %v", err), err, header)
	}
	out, err := checkedImage(data)
	if err != nil {
		if len(data) > 0 && !isTooLarge(err) {
			res.Undecoded = append(res.Undecoded, Undecoded{Data: data, Reason: err})
			return nil
		}
		return badResponse(catalogue.F("the image: %v", err), err, header)
	}
	out.RevisedPrompt = call.Get("revised_prompt").String()
	res.Images = append(res.Images, out)
	res.Size, res.Quality = call.Get("size").String(), call.Get("quality").String()
	res.Background, res.OutputFormat = call.Get("background").String(), call.Get("output_format").String()
	return nil
}

// readResponseStream reads a streamed turn: previews as the image tool
// sends them (under the Responses API's event name and the Images API's,
// which gateways pass through), and the picture from the finished
// response, or from its finished output item when the stream ends
// without one.
func (c *Client) readResponseStream(ctx context.Context, resp *http.Response, o ImageOptions, onPartial func(Partial)) (*ImageResult, error) {
	events := newSSEReader(resp.Body, c.cfg.MaxResponse)
	st := &turnStream{res: &ImageResult{Streamed: true}}
	for {
		data, ok := events.event(ctx)
		if !ok {
			break
		}
		if !gjson.ValidBytes(data) {
			continue // [DONE], keep-alives
		}
		if e := st.take(gjson.ParseBytes(data), o, onPartial); e.Exists() && e.Type != gjson.Null {
			return nil, c.streamError(resp, []byte(e.Raw), o.Model)
		}
	}
	if events.err != nil {
		return nil, c.readErr(ctx, events.err, o.Model)
	}
	if ctx.Err() != nil {
		return nil, classifyTransport(ctx, ctx.Err(), o.Model)
	}
	return st.result(resp, o.Model)
}

// turnStream is what a streamed turn has said so far.
type turnStream struct {
	res   *ImageResult
	done  gjson.Result   // the completed response
	items []gjson.Result // finished image calls
}

// take reads one event; it returns the error an event carries.
func (st *turnStream) take(ev gjson.Result, o ImageOptions, onPartial func(Partial)) gjson.Result {
	switch typ := ev.Get("type").String(); typ {
	case "response.created", "response.in_progress":
		st.res.Response = ev.Get("response.id").String()
		st.res.Continued = ev.Get("response.previous_response_id").String()
	case "response.image_generation_call.partial_image", "image_generation.partial_image", "image_edit.partial_image":
		st.res.streamPreview(ev, o, onPartial)
	case "response.output_item.done":
		if ev.Get("item.type").String() == "image_generation_call" {
			st.items = append(st.items, ev.Get("item"))
		}
	case "response.completed":
		st.done = ev.Get("response")
	case "error":
		return ev.Get("error")
	case "response.failed":
		return ev.Get("response.error")
	}
	return gjson.Result{}
}

// result is the turn's picture: the completed response's, else the
// first finished image call's.
func (st *turnStream) result(resp *http.Response, model string) (*ImageResult, error) {
	if st.done.Exists() {
		whole, err := responseResult(st.done, resp.Header)
		if err != nil {
			return nil, err
		}
		whole.Streamed, whole.Previews, whole.DroppedPreviews = true, st.res.Previews, st.res.DroppedPreviews
		return whole, nil
	}
	if len(st.items) > 0 {
		if err := st.res.addCall(st.items[0], resp.Header); err != nil {
			return nil, err
		}
		return undecodedOnly(st.res, resp)
	}
	e := &Error{Kind: KindServer, Message: catalogue.T("the stream ended before the image was finished"), RequestID: requestID(resp.Header)}
	e.Hint = hintFor(e, model)
	return nil, e
}

// streamPreview hands a preview on; one that is broken, too large or more
// than were asked for is dropped, as on the Images API.
func (res *ImageResult) streamPreview(ev gjson.Result, o ImageOptions, onPartial func(Partial)) {
	b64 := ev.Get("partial_image_b64")
	if !b64.Exists() {
		b64 = ev.Get("b64_json")
	}
	img, format, ok := preview(res.Previews, o.PartialImages, func() ([]byte, error) { return base64.StdEncoding.DecodeString(b64.String()) })
	if !ok {
		res.DroppedPreviews++
		return
	}
	res.Previews++
	if onPartial != nil {
		onPartial(Partial{Index: int(ev.Get("partial_image_index").Int()), Data: img, Format: format})
	}
}

// LaneRefused reports an error that says the service cannot take a turn
// through the Responses API at all (no such route, no image tool for
// this model, no stored answers), and why, in a sentence: nothing was
// made or billed, so the turn goes through the Images API at once.
func LaneRefused(err error) (string, bool) {
	var e *Error
	if !errors.As(err, &e) || e.Reached && e.Status == 0 {
		return "", false
	}
	text := strings.ToLower(e.Message + " " + e.Param + " " + e.Code)
	switch {
	case e.Kind == KindUnknownModel:
		return catalogue.F("the service does not serve the text model turns talk to: %s", e.Message), true
	case e.Status == http.StatusNotFound || e.Status == http.StatusMethodNotAllowed || e.Status == http.StatusNotImplemented:
		return catalogue.F("the service has no Responses API (HTTP %d)", e.Status), true
	case e.Status == http.StatusBadRequest && strings.Contains(text, "previous_response"):
		return catalogue.T("the service does not keep earlier answers (previous_response_id)"), true
	case e.Status == http.StatusBadRequest && (strings.Contains(text, "tool") || strings.Contains(text, "image_generation")):
		return catalogue.F("the service does not give its text model the image tool: %s", e.Message), true
	}
	return "", false
}
