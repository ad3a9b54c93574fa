package api

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"easel/internal/capability"
)

// The request bodies of the spec's three POST endpoints. Each field is
// sent only when it is set, so a gateway that does not know a parameter
// never sees it and the server's default applies.

// imageFields are the options CreateImageRequest and a batch's
// EditImageBodyJsonParam both carry, under the same names.
type imageFields struct {
	Model             string `json:"model,omitempty"`
	N                 int    `json:"n,omitempty"`
	Size              string `json:"size,omitempty"`
	Quality           string `json:"quality,omitempty"`
	Background        string `json:"background,omitempty"`
	OutputFormat      string `json:"output_format,omitempty"`
	OutputCompression *int   `json:"output_compression,omitempty"`
	Moderation        string `json:"moderation,omitempty"`
}

func newImageFields(o ImageOptions) imageFields {
	return imageFields{Model: o.Model, N: o.N, Size: o.Size, Quality: o.Quality, Background: o.Background,
		OutputFormat: o.OutputFormat, OutputCompression: o.OutputCompression, Moderation: o.Moderation}
}

// generateBody is CreateImageRequest.
type generateBody struct {
	Prompt string `json:"prompt"`
	imageFields
	ResponseFormat string `json:"response_format,omitempty"`
	Stream         bool   `json:"stream,omitempty"`
	// PartialImages is sent with every stream, 0 included: 0 asks for
	// the final image alone.
	PartialImages *int   `json:"partial_images,omitempty"`
	Complexity    string `json:"complexity,omitempty"`
}

func newGenerateBody(req GenerateRequest) generateBody {
	o := req.ImageOptions
	b := generateBody{Prompt: req.Prompt, imageFields: newImageFields(o),
		ResponseFormat: o.ResponseFormat, Stream: o.Stream, Complexity: o.Complexity}
	if o.Stream {
		b.PartialImages = &o.PartialImages
	}
	return b
}

// gifFields are a GIF request's frame count and duration under the
// names the model's sheet gives (they differ by route), none when the
// request asks for no GIF or its model has no GIF rules.
func gifFields(o ImageOptions) map[string]int {
	if o.OutputFormat != "gif" {
		return nil
	}
	s, ok := capability.Lookup(o.Model)
	if !ok || s.GIF == nil {
		return nil
	}
	out := map[string]int{}
	if o.Frames > 0 && s.GIF.FramesParam != "" {
		out[s.GIF.FramesParam] = o.Frames
	}
	if o.FrameMillis > 0 && s.GIF.DurationParam != "" {
		out[s.GIF.DurationParam] = o.FrameMillis
	}
	return out
}

// generateRequest is the generation's JSON body, with a GIF's fields
// beside the spec's.
func generateRequest(req GenerateRequest) (request, error) {
	extra := gifFields(req.ImageOptions)
	if len(extra) == 0 {
		return jsonRequest("images/generations", newGenerateBody(req))
	}
	data, err := json.Marshal(newGenerateBody(req))
	if err != nil {
		return request{}, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return request{}, err
	}
	for k, v := range extra {
		if _, taken := m[k]; !taken {
			m[k] = v
		}
	}
	return jsonRequest("images/generations", m)
}

// chatBody is CreateChatCompletionRequest, with the fields Easel sets.
type chatBody struct {
	Model         string         `json:"model"`
	Messages      []chatMessage  `json:"messages"`
	Temperature   *float64       `json:"temperature,omitempty"`
	MaxTokens     *int           `json:"max_tokens,omitempty"`
	Stream        bool           `json:"stream,omitempty"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatMessage's Content is a string, or content parts when the message
// carries images.
type chatMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// contentPart is one part of a message's content: text, or an image as
// a data URL.
type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

// dataURL is an image as a data: URL, the form every vision model takes.
func dataURL(img InputImage) string {
	ct := img.ContentType
	if ct == "" {
		ct = http.DetectContentType(img.Data)
	}
	return "data:" + ct + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

func newChatBody(req ChatRequest) chatBody {
	b := chatBody{Model: req.Model, Temperature: req.Temperature, MaxTokens: req.MaxTokens, Stream: req.Stream,
		Messages: make([]chatMessage, len(req.Messages))}
	if req.Stream && req.IncludeUsage {
		b.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	for i, m := range req.Messages {
		role := m.Role
		if role != RoleSystem && role != RoleAssistant {
			role = RoleUser
		}
		if len(m.Images) == 0 || role != RoleUser {
			b.Messages[i] = chatMessage{Role: role, Content: m.Content}
			continue
		}
		parts := []contentPart{{Type: "text", Text: m.Content}}
		for _, img := range m.Images {
			parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: dataURL(img)}})
		}
		b.Messages[i] = chatMessage{Role: role, Content: parts}
	}
	return b
}

// jsonRequest is a POST of v as JSON.
func jsonRequest(path string, v any) (request, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return request{}, err
	}
	return request{method: http.MethodPost, path: path, body: data, contentType: "application/json"}, nil
}

// editRequest is CreateImageEditRequest as multipart/form-data: the
// images as repeated image[] parts in the user's order, then the mask,
// then each field that is set.
func editRequest(req EditRequest) (request, error) {
	body := &streamedBody{}
	w := multipart.NewWriter(body)
	field := func(name, value string) {
		if value != "" {
			_ = w.WriteField(name, value) // writes to a streamedBody do not fail
		}
	}
	file := func(name string, img InputImage, ctype string) error {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", multipart.FileContentDisposition(name, partFileName(img.Name)))
		h.Set("Content-Type", ctype)
		if _, err := w.CreatePart(h); err != nil {
			return err
		}
		body.add(img)
		return nil
	}
	o := req.ImageOptions
	field("prompt", req.Prompt)
	for _, img := range req.Images {
		if err := file("image[]", img, contentTypeOr(img.ContentType, img.head())); err != nil {
			return request{}, err
		}
	}
	if req.Mask != nil {
		m := *req.Mask
		m.Name = maskName(m.Name)
		if err := file("mask", m, "image/png"); err != nil {
			return request{}, err
		}
	}
	for _, mk := range []struct {
		name string
		img  *InputImage
	}{{"markup", req.Markup}, {"markup_alpha", req.MarkupAlpha}} {
		if mk.img != nil {
			m := *mk.img
			if m.Name == "" {
				m.Name = mk.name + ".png"
			}
			if err := file(mk.name, m, "image/png"); err != nil {
				return request{}, err
			}
		}
	}
	field("model", o.Model)
	if o.N > 0 {
		field("n", strconv.Itoa(o.N))
	}
	field("size", o.Size)
	field("quality", o.Quality)
	field("background", o.Background)
	field("output_format", o.OutputFormat)
	if o.OutputCompression != nil {
		field("output_compression", strconv.Itoa(*o.OutputCompression))
	}
	field("moderation", o.Moderation)
	field("response_format", o.ResponseFormat)
	field("input_fidelity", req.InputFidelity)
	field("complexity", o.Complexity)
	gif := gifFields(o)
	for _, name := range slices.Sorted(maps.Keys(gif)) {
		field(name, strconv.Itoa(gif[name]))
	}
	if o.Stream {
		field("stream", "true")
		field("partial_images", strconv.Itoa(o.PartialImages))
	}
	if err := w.Close(); err != nil {
		return request{}, err
	}
	return request{method: http.MethodPost, path: "images/edits", upload: body, contentType: w.FormDataContentType()}, nil
}

// partFileName is a file's name as a part's header can carry it: a name
// may hold a line break or a NUL on Linux, which would end the header
// line (or be refused by the server's parser) and lose the request, so
// control characters become "_". The name is only a label to the service.
func partFileName(n string) string {
	n = strings.ToValidUTF8(n, "_")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '_'
		}
		return r
	}, n)
}

func maskName(n string) string {
	if n == "" {
		return "mask.png"
	}
	return n
}

func contentTypeOr(ct string, data []byte) string {
	if ct != "" {
		return ct
	}
	return http.DetectContentType(data)
}
