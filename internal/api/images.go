package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
	"easel/internal/imageio"
)

// Generate makes images from a prompt. With Stream set, onPartial (which
// may be nil) receives each preview as it arrives, on the calling
// goroutine. The request is checked before it is sent.
func (c *Client) Generate(ctx context.Context, req GenerateRequest, onPartial func(Partial)) (res *ImageResult, err error) {
	defer func() { err = c.scrub.err(err) }()
	if err := req.Check(c.cfg.Limits); err != nil {
		return nil, err
	}
	r, err := generateRequest(req)
	if err != nil {
		return nil, err
	}
	return c.images(ctx, r, req.ImageOptions, onPartial)
}

// Edit changes or combines images. The images go as repeated image[]
// parts in the order given; the mask applies to the first. An edit is
// never retried on its own: it would upload every image again.
func (c *Client) Edit(ctx context.Context, req EditRequest, onPartial func(Partial)) (res *ImageResult, err error) {
	defer func() { err = c.scrub.err(err) }()
	if err := req.Check(c.cfg.Limits); err != nil {
		return nil, err
	}
	if req.Turn != nil {
		return c.respond(ctx, req, onPartial)
	}
	r, err := editRequest(req)
	if err != nil {
		return nil, err
	}
	return c.images(ctx, r, req.ImageOptions, onPartial)
}

// images sends an image request and reads its answer, streamed or not.
// A non-streamed image sends nothing until it is done, so only a stream
// has a first-byte deadline.
func (c *Client) images(ctx context.Context, r request, o ImageOptions, onPartial func(Partial)) (*ImageResult, error) {
	resp, rctx, cancel, err := c.callImage(ctx, r, o)
	if err != nil {
		return nil, err
	}
	defer cancel()
	defer resp.Body.Close()
	var res *ImageResult
	want := wanted{images: max(o.N, 1), previews: o.PartialImages * max(o.N, 1)} // previews are per image
	if isEventStream(resp) {
		res, err = c.readImageStream(rctx, resp, o.Model, want, onPartial)
	} else {
		// A gateway may answer a stream request with plain JSON: read it
		// as the unstreamed answer it is.
		res, err = c.readImageJSON(rctx, resp, o.Model, want)
	}
	if err != nil {
		fitTimeout(err, "images", o.Stream)
		return nil, c.scrub.err(err)
	}
	res.RequestID = c.scrub.line(requestID(resp.Header))
	for i := range res.Images {
		res.Images[i].RevisedPrompt = Clean(c.scrub.redact(res.Images[i].RevisedPrompt), true)
	}
	return res, nil
}

// callImage sends an image request (an Images API call or a turn through
// the Responses API) with an image's deadlines: the whole exchange
// bounded by ImageTimeout, and the answer's headers by FirstByteTimeout
// when it streams. A time-out is said as an image's.
func (c *Client) callImage(ctx context.Context, r request, o ImageOptions) (*http.Response, context.Context, context.CancelFunc, error) {
	r.model, r.stream, r.overall = o.Model, o.Stream, c.cfg.ImageTimeout
	if o.Stream {
		r.firstByte = c.cfg.FirstByteTimeout
	}
	resp, rctx, cancel, err := c.call(ctx, r)
	if err != nil {
		fitTimeout(err, "images", o.Stream)
	}
	return resp, rctx, cancel, err
}

// wanted is what a request asked for: an answer is never allowed to make
// more, whatever it sends (20,000 images for one, previews without end).
type wanted struct {
	images, previews int
}

// isWebPage reports an answer that is an HTML page: a login portal, a
// proxy's error page, a base URL that points at a website. Some gateways
// label their JSON text/html: a body that starts as a JSON object is
// read as the answer it is (the peeked bytes stay in the body).
func isWebPage(resp *http.Response) bool {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt != "text/html" {
		return false
	}
	br := bufio.NewReaderSize(resp.Body, 512)
	resp.Body = struct {
		io.Reader
		io.Closer
	}{br, resp.Body}
	head, _ := br.Peek(512)
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(head) == 0 || head[0] != '{'
}

// webPage is the failure of a 200 that is a web page, not an answer.
func webPage(resp *http.Response) *Error {
	e := &Error{Kind: KindBadResponse, Message: catalogue.T("the service answered with a web page instead of an API answer"), RequestID: requestID(resp.Header)}
	e.Hint = catalogue.T("Check the base URL: it should be the API's address, usually ending in /v1, not a website or a login page.")
	return e
}

func isEventStream(resp *http.Response) bool {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mt == "text/event-stream"
}

// readErr classifies a failure while reading an answer's body.
func (c *Client) readErr(ctx context.Context, err error, model string) *Error {
	if ctx.Err() != nil {
		return classifyTransport(ctx, err, model)
	}
	var long *TooLongError
	if errors.As(err, &long) {
		return &Error{Kind: KindBadResponse, Message: long.Error(), Err: err,
			Hint: catalogue.T("The service sent far more than such an answer holds: check that the base URL points at an OpenAI-compatible API, or ask for fewer or smaller images.")}
	}
	// The service was reached and had begun to answer: its address is
	// right, so the hint is not the one for an unreachable service.
	return &Error{Kind: KindNetwork, Reached: true, Message: catalogue.T("the connection broke while the answer was arriving"), Err: err,
		Hint: catalogue.T("The service answered but the connection broke before the end: try again; if it keeps happening, turn streaming off, or a proxy or gateway between may be cutting long answers.")}
}

func (c *Client) readImageJSON(ctx context.Context, resp *http.Response, model string, want wanted) (*ImageResult, error) {
	if resp.ContentLength > c.cfg.MaxResponse {
		return nil, c.readErr(ctx, &TooLongError{Limit: c.cfg.MaxResponse, Said: resp.ContentLength}, model)
	}
	if isWebPage(resp) {
		return nil, webPage(resp)
	}
	w, _, err := readWireStream(resp.Body, resp.ContentLength, c.cfg.MaxResponse, want.images)
	if err != nil {
		if ctx.Err() != nil || !isFormatError(err) {
			return nil, c.readErr(ctx, err, model)
		}
		return nil, badResponse(err.Error(), err, resp.Header)
	}
	root := w.meta
	if e := root.Get("error"); e.Exists() && e.Type != gjson.Null {
		return nil, c.streamError(resp, []byte(e.Raw), model)
	}
	res := &ImageResult{
		Created:      time.Unix(root.Get("created").Int(), 0),
		Usage:        usageFrom(root.Get("usage")),
		Size:         root.Get("size").String(),
		Quality:      root.Get("quality").String(),
		Background:   root.Get("background").String(),
		OutputFormat: root.Get("output_format").String(),
	}
	// The items are walked, not made into an array: an answer may list
	// millions, and only those asked for are kept.
	var items []gjson.Result
	count := 0
	if data := root.Get("data"); data.IsArray() {
		data.ForEach(func(_, item gjson.Result) bool {
			if count < want.images {
				items = append(items, item)
			}
			count++
			return true
		})
	}
	if count == 0 {
		return nil, badResponse(catalogue.T("the answer holds no images"), nil, resp.Header)
	}
	res.Dropped = count - len(items)
	for i, item := range items {
		var img []byte
		var err error
		switch {
		case item.Get("b64_json").Exists():
			img, err = w.image(item.Get("b64_json"))
		case item.Get("url").Exists():
			res.Linked++
			img, err = c.download(ctx, item.Get("url").String())
		default:
			err = errors.New(catalogue.T("neither b64_json nor url"))
		}
		if err != nil {
			var ae *Error
			if errors.As(err, &ae) {
				return nil, ae
			}
			return nil, badResponse(catalogue.F("image %d of the answer: %v", i+1, err), err, resp.Header)
		}
		out, err := checkedImage(img)
		if err != nil {
			if len(img) > 0 && !isTooLarge(err) {
				res.Undecoded = append(res.Undecoded, Undecoded{Data: img, Reason: err})
				continue
			}
			return nil, badResponse(catalogue.F("image %d of the answer: %v", i+1, err), err, resp.Header)
		}
		out.RevisedPrompt = revisedPrompt(item)
		res.Images = append(res.Images, out)
	}
	return undecodedOnly(res, resp)
}

// undecodedOnly fails an answer whose every image is unreadable, with
// their bytes in the error; an answer with some readable images stands,
// the others in Undecoded.
func undecodedOnly(res *ImageResult, resp *http.Response) (*ImageResult, error) {
	if len(res.Images) > 0 || len(res.Undecoded) == 0 {
		return res, nil
	}
	ue := &UndecodedError{Images: res.Undecoded}
	e := badResponse(ue.Error(), ue, resp.Header)
	e.Hint = catalogue.T("The service sent something that is not a picture Easel reads, and may have charged for it: its bytes are kept, to open in another program or to show the service's support.")
	return nil, e
}

// preview decodes the next preview and reads its format from its
// header; ok is false for one more than the asked number (shown counts
// those already handed on), one that does not decode, is no picture or
// claims more pixels than Easel decodes: a preview is a courtesy,
// dropped rather than failed.
func preview(shown, asked int, decode func() ([]byte, error)) (img []byte, format string, ok bool) {
	if shown >= asked {
		return nil, "", false
	}
	img, err := decode()
	if err != nil {
		return nil, "", false
	}
	format, w, h, err := imageio.SniffImage(img)
	return img, format, err == nil && imageio.CheckPixels(w, h) == nil
}

// checkedImage reads an image's format and size from its header and
// refuses one that claims more pixels than Easel will decode, before
// anything decodes it.
func checkedImage(data []byte) (Image, error) {
	format, w, h, err := imageio.SniffImage(data)
	if err != nil {
		return Image{}, err
	}
	if err := imageio.CheckPixels(w, h); err != nil {
		return Image{}, err
	}
	return Image{Data: data, Format: format, Width: w, Height: h}, nil
}

// download fetches an image a dall-e style answer links to: http or https
// only, without the API key, bounded in size.
func (c *Client) download(ctx context.Context, link string) ([]byte, error) {
	if strings.HasPrefix(link, "data:") {
		// The image itself, in place of a link: nothing to fetch.
		payload := DataURLPayload([]byte(link))
		if len(payload) == len(link) {
			return nil, errors.New(catalogue.T("the image came as a data: URL that is not base64"))
		}
		if int64(len(payload)) > c.cfg.MaxResponse/3*4 {
			return nil, &TooLongError{Limit: c.cfg.MaxResponse, Said: int64(len(payload)) / 4 * 3}
		}
		data, err := base64.StdEncoding.DecodeString(string(payload))
		if err != nil {
			return nil, fmt.Errorf(catalogue.T("the image came as a data: URL whose base64 is broken: %w"), err)
		}
		return data, nil
	}
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf(catalogue.T("the image link %q is not an http or https address"), link)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.links.Do(req)
	if err != nil {
		return nil, c.linkError(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf(catalogue.T("downloading the image answered %s"), resp.Status)
	}
	data, err := readBody(resp.Body, resp.ContentLength, c.cfg.MaxResponse)
	var long *TooLongError
	if err != nil && !errors.As(err, &long) {
		return nil, c.linkError(ctx, err)
	}
	return data, err
}

// linkError words a failure to fetch an image the answer links to: the
// image was made (and may be charged), only its download failed.
func (c *Client) linkError(ctx context.Context, err error) *Error {
	e := classifyTransport(ctx, err, "")
	switch e.Kind {
	case KindTimeout:
		e.Message = catalogue.T("the image the answer links to did not arrive in time")
		e.Hint = catalogue.T("The service made the image but its link stalled: try again; the image may already be charged.")
	case KindNetwork:
		e.Message = catalogue.T("the image the answer links to could not be downloaded")
		e.Hint = catalogue.T("The service made the image but its link could not be reached: try again; the image may already be charged.")
	}
	return c.scrub.error(e)
}

// readImageStream reads image_generation.* / image_edit.* events.
func (c *Client) readImageStream(ctx context.Context, resp *http.Response, model string, want wanted, onPartial func(Partial)) (*ImageResult, error) {
	events := newSSEReader(resp.Body, c.cfg.MaxResponse)
	res := &ImageResult{Streamed: true}
	previews := 0
	defer func() { res.Previews = previews }()
	for {
		data, ok := events.event(ctx)
		if !ok {
			break
		}
		if string(data) == "[DONE]" {
			continue
		}
		w, err := parseWire(data)
		if err != nil {
			return nil, badResponse(catalogue.F("a stream event: %v", err), err, resp.Header)
		}
		ev := w.meta
		if e := ev.Get("error"); e.Exists() && e.Type != gjson.Null {
			return nil, c.streamError(resp, []byte(e.Raw), model)
		}
		typ := ev.Get("type").String()
		switch typ {
		case "image_generation.partial_image", "image_edit.partial_image":
			// A preview is a courtesy: one that is broken, too large or
			// more than were asked for is dropped, and the job goes on to
			// its final image.
			img, format, ok := preview(previews, want.previews, func() ([]byte, error) { return w.image(ev.Get("b64_json")) })
			if !ok {
				res.DroppedPreviews++
				continue
			}
			previews++
			if onPartial != nil {
				onPartial(Partial{Index: int(ev.Get("partial_image_index").Int()), Data: img, Format: format, Image: len(res.Images)})
			}
		case "image_generation.completed", "image_edit.completed":
			if len(res.Images) >= want.images {
				res.Dropped++
				continue
			}
			img, err := w.image(ev.Get("b64_json"))
			if err != nil {
				return nil, badResponse(catalogue.F("the image: %v", err), err, resp.Header)
			}
			out, err := checkedImage(img)
			if err != nil {
				if len(img) > 0 && !isTooLarge(err) {
					res.Undecoded = append(res.Undecoded, Undecoded{Data: img, Reason: err})
					continue
				}
				return nil, badResponse(catalogue.F("the image: %v", err), err, resp.Header)
			}
			out.RevisedPrompt = revisedPrompt(ev) // a streamed answer says it too
			res.Images = append(res.Images, out)
			if onPartial != nil && want.images > 1 {
				// Of several, each image shows as it arrives.
				onPartial(Partial{Data: out.Data, Format: out.Format, Image: len(res.Images) - 1, Final: true})
			}
			res.Created = time.Unix(ev.Get("created_at").Int(), 0)
			res.Usage = usageFrom(ev.Get("usage"))
			res.Size = ev.Get("size").String()
			res.Quality = ev.Get("quality").String()
			res.Background = ev.Get("background").String()
			res.OutputFormat = ev.Get("output_format").String()
		}
	}
	if events.err != nil {
		return nil, c.readErr(ctx, events.err, model)
	}
	if ctx.Err() != nil {
		return nil, classifyTransport(ctx, ctx.Err(), model)
	}
	if len(res.Images) == 0 {
		e := &Error{Kind: KindServer, Message: catalogue.T("the stream ended before the image was finished"), RequestID: requestID(resp.Header)}
		e.Hint = hintFor(e, model)
		return nil, e
	}
	return res, nil
}

// streamError classifies an {"error": …} that came with a 200 answer,
// inside a stream or a JSON body.
func (c *Client) streamError(resp *http.Response, errJSON []byte, model string) *Error {
	body := append([]byte(`{"error":`), errJSON...)
	body = append(body, '}')
	e := classifyHTTP(0, resp.Header, body, model)
	if e.Kind == KindUnknown {
		// An error that names what it refused (a parameter, an invalid
		// value) is a refusal, said and learnt as one; any other is the
		// service failing on its side (#53: it was said as a failure
		// to try again, and learnt as a refusal).
		e.Kind = KindServer
		if code := strings.ToLower(e.Code); e.Param != "" || strings.Contains(code, "invalid") {
			e.Kind = kindOfRequest(strings.ToLower(e.Message), code, strings.ToLower(e.Param))
		}
		e.Hint = hintFor(e, model)
	}
	return c.scrub.error(e)
}

// isTooLarge reports an image refused for the pixels it claims: a
// decompression bomb is refused, not kept aside.
func isTooLarge(err error) bool {
	var tl *imageio.TooLargeError
	return errors.As(err, &tl)
}

// MaxRevisedPrompt bounds the prompt a service says it used: the longest
// prompt an image model takes is 32,000 characters.
const MaxRevisedPrompt = 32000

// revisedPrompt is an answer item's revised_prompt, cut to
// MaxRevisedPrompt characters.
func revisedPrompt(item gjson.Result) string {
	s := item.Get("revised_prompt").String()
	if len(s) <= MaxRevisedPrompt {
		return s
	}
	r := []rune(s[:MaxRevisedPrompt+utf8.UTFMax])
	return string(r[:min(len(r), MaxRevisedPrompt)])
}
