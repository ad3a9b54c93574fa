package demoservice

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // inputs may be JPEG
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	_ "golang.org/x/image/webp" // inputs may be WebP

	"easel/internal/api"
	"easel/internal/imageio"
	"easel/internal/pricing"
)

// imageJob is one parsed image request, generation or edit.
type imageJob struct {
	kind           string // image_generation or image_edit
	prompt, model  string
	n              int
	size           string
	quality        string
	background     string
	format         string
	compression    int
	responseFormat string
	stream         bool
	partials       int
	base, mask     image.Image
	inputs         int
	fidelity       string
	fault          string
	// complexity, frames and frameMillis are GPT Image 2.6's options;
	// markup its marks over the first image.
	complexity          string
	frames, frameMillis int
	markup              image.Image
	// revised is the prompt a rewriting gateway put in its place.
	revised string
	started time.Time
}

func (s *Server) handleGenerate(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Prompt            string `json:"prompt"`
		Model             string `json:"model"`
		N                 *int   `json:"n"`
		Size              string `json:"size"`
		Quality           string `json:"quality"`
		Background        string `json:"background"`
		OutputFormat      string `json:"output_format"`
		OutputCompression *int   `json:"output_compression"`
		Moderation        string `json:"moderation"`
		ResponseFormat    string `json:"response_format"`
		Stream            bool   `json:"stream"`
		PartialImages     *int   `json:"partial_images"`
		Complexity        string `json:"complexity"`
		Frames            int    `json:"frames"`
		FrameMillis       int    `json:"frame_duration_ms"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", "", "")
		return
	}
	job := imageJob{started: time.Now(), kind: "image_generation", prompt: body.Prompt, model: body.Model, size: body.Size,
		quality: body.Quality, background: body.Background, format: body.OutputFormat,
		responseFormat: body.ResponseFormat, stream: body.Stream, n: 1, compression: 100,
		complexity: body.Complexity, frames: body.Frames, frameMillis: body.FrameMillis}
	if body.N != nil {
		job.n = *body.N
	}
	if body.OutputCompression != nil {
		job.compression = *body.OutputCompression
	}
	if body.PartialImages != nil {
		job.partials = *body.PartialImages
	}
	job.fault = faultOf(r, job.model)
	s.serveImages(w, r, job, body.OutputCompression != nil)
}

func (s *Server) handleEdit(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Console == ConsoleOneAPI {
		// one-api has no edits relay: it reads no model from the form
		// and finds no channel for "".
		g, _ := r.Context().Value(groupKey{}).(Group)
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("当前分组 %s 下对于模型  无可用渠道", orDefault(g.Name, "default", "", "")), "one_api_error", "", "")
		return
	}
	if s.cfg.UploadRate > 0 {
		r.Body = &throttled{ReadCloser: r.Body, rate: s.cfg.UploadRate, start: time.Now()}
	}
	if err := r.ParseMultipartForm(64 << 20); err != nil {
		writeError(w, http.StatusBadRequest, "The request body must be multipart/form-data: "+err.Error(), "invalid_request_error", "", "")
		return
	}
	f := r.MultipartForm
	job := imageJob{started: time.Now(), kind: "image_edit", prompt: r.FormValue("prompt"), model: r.FormValue("model"),
		size: r.FormValue("size"), quality: r.FormValue("quality"), background: r.FormValue("background"),
		format: r.FormValue("output_format"), responseFormat: r.FormValue("response_format"),
		stream: r.FormValue("stream") == "true", n: 1, compression: 100, fidelity: r.FormValue("input_fidelity"),
		complexity: r.FormValue("complexity")}
	job.frames, _ = strconv.Atoi(r.FormValue("frames"))
	job.frameMillis, _ = strconv.Atoi(r.FormValue("frame_duration_ms"))
	job.fault = faultOf(r, job.model)
	if v := r.FormValue("n"); v != "" {
		job.n, _ = strconv.Atoi(v)
	}
	hasCompression := r.FormValue("output_compression") != ""
	if hasCompression {
		job.compression, _ = strconv.Atoi(r.FormValue("output_compression"))
	}
	if v := r.FormValue("partial_images"); v != "" {
		job.partials, _ = strconv.Atoi(v)
	}
	files := append(f.File["image[]"], f.File["image"]...)
	if len(files) == 0 {
		writeError(w, http.StatusBadRequest, "Missing required parameter: 'image'.", "invalid_request_error", "image", "")
		return
	}
	if len(files) > 16 {
		writeError(w, http.StatusBadRequest, "Too many images: at most 16.", "invalid_request_error", "image", "")
		return
	}
	job.inputs = len(files)
	for i, fh := range files {
		img, err := decodePart(fh)
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid image file %d (%s): %v. Supported formats are png, jpeg and webp.", i+1, fh.Filename, err), "invalid_request_error", "image", "invalid_image_format")
			return
		}
		if i == 0 {
			job.base = img
		}
	}
	if m := f.File["mask"]; len(m) > 0 {
		img, err := decodePart(m[0])
		if err != nil {
			writeError(w, http.StatusBadRequest, "Invalid mask: "+err.Error(), "invalid_request_error", "mask", "invalid_image_format")
			return
		}
		if img.Bounds().Size() != job.base.Bounds().Size() {
			writeError(w, http.StatusBadRequest, "Invalid mask: it must have the same dimensions as the first image.", "invalid_request_error", "mask", "invalid_image_format")
			return
		}
		job.mask = img
	}
	for _, name := range []string{"markup", "markup_alpha"} {
		m := f.File[name]
		if len(m) == 0 {
			continue
		}
		img, err := decodePart(m[0])
		if err != nil || img.Bounds().Size() != job.base.Bounds().Size() {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid %s: it must be a PNG of the first image's dimensions.", name), "invalid_request_error", name, "invalid_image_format")
			return
		}
		if name == "markup" {
			job.markup = img
		}
	}
	s.serveImages(w, r, job, hasCompression)
}

func decodePart(fh *multipart.FileHeader) (image.Image, error) {
	rd, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	img, _, err := image.Decode(rd)
	return img, err
}

// validate answers the request errors the real service gives. It returns
// false when it has answered.
func (s *Server) validate(w http.ResponseWriter, job *imageJob, hasCompression bool) bool {
	bad := func(param, msg string) bool {
		code := ""
		if param == "size" {
			code = "invalid_size"
		}
		writeError(w, http.StatusBadRequest, msg, "invalid_request_error", param, code)
		return false
	}
	switch {
	case strings.TrimSpace(job.prompt) == "":
		return bad("prompt", "Missing required parameter: 'prompt'.")
	case job.n < 1 || job.n > 10:
		return bad("n", fmt.Sprintf("Invalid value for 'n': %d. Must be between 1 and 10.", job.n))
	case job.partials < 0 || job.partials > 3:
		return bad("partial_images", "Invalid value for 'partial_images': must be between 0 and 3.")
	case job.background == "transparent" && s.has(QuirkRefusesTransparency):
		return bad("background", "Transparent background is not supported for this model.")
	case job.background == "transparent" && job.format == "jpeg":
		return bad("background", "Transparent background is not supported for jpeg output; use png or webp.")
	case hasCompression && job.format != "jpeg" && job.format != "webp":
		return bad("output_compression", "output_compression is only supported for jpeg and webp.")
	case job.compression < 0 || job.compression > 100:
		return bad("output_compression", "Invalid value for 'output_compression': must be between 0 and 100.")
	}
	if err := api.DefaultLimits.CheckSize(job.size); err != nil {
		return bad("size", fmt.Sprintf("Invalid value for 'size': %s.", job.size))
	}
	return true
}

// serveImages runs the common path of both image endpoints.
func (s *Server) serveImages(w http.ResponseWriter, r *http.Request, job imageJob, hasCompression bool) {
	if job.fault != "" && s.commonFault(w, r, job.fault, job.model) {
		return
	}
	if !s.checkModel(w, r, job.model) || !s.validate(w, &job, hasCompression) || !s.checkNewest(w, &job) {
		return
	}
	s.remember(job)
	if !s.pay(job.n) {
		writeError(w, http.StatusForbidden, "用户额度不足, 剩余额度: ＄0.000000", "new_api_error", "", "insufficient_user_quota")
		return
	}
	if job.format == "" {
		job.format = "png"
	}
	s.applyQuirks(&job)
	wd, ht := outputSize(job.size, job.base)
	if job.stream && s.cfg.Console == ConsoleOneAPI {
		// one-api cannot read an image stream: the upstream answered 200
		// (and one-api billed the n pictures asked), then it fails.
		if sleep(r.Context(), 2*s.cfg.Pace) {
			s.books.bill(r.Context(), keyOf(r), job.model, usage(job, wd, ht), job.n)
			writeError(w, http.StatusInternalServerError, "invalid character 'e' looking for beginning of value", "one_api_error", "", "unmarshal_response_body_failed")
		}
		return
	}
	if job.stream && job.kind == "image_edit" && s.has(QuirkStreamedEditFails) {
		// The upstream did the work (and billed it); the gateway could
		// not read its stream.
		if sleep(r.Context(), 2*s.cfg.Pace) {
			writeError(w, http.StatusInternalServerError, "invalid character 'e' looking for beginning of value", "new_api_error", "", "bad_response_body")
		}
		return
	}
	if job.stream && job.fault != FaultJSONForStream && !s.has(QuirkNoImageStream) {
		s.streamImages(w, r, job, wd, ht)
		return
	}
	if !sleep(r.Context(), 2*s.cfg.Pace) || s.proxyCut(w, job.started) {
		return
	}
	s.jsonImages(w, r, job, wd, ht)
}

// applyQuirks changes a request as the server's gateway quirks do before
// it reaches the model.
func (s *Server) applyQuirks(job *imageJob) {
	if s.has(QuirkOneImage) {
		job.n = 1
	}
	if s.has(QuirkIgnoreMask) && job.mask != nil {
		// Repainted everywhere, as if the whole image were masked.
		job.mask = image.NewNRGBA(job.mask.Bounds())
	}
	if s.has(QuirkFirstImageOnly) {
		job.inputs = min(job.inputs, 1)
	}
	if s.has(QuirkLinksForInline) {
		job.responseFormat = "url"
	}
	if s.has(QuirkRewritePrompt) {
		job.revised = job.prompt + ", masterpiece, best quality, ultra-detailed, 8k"
	}
	if s.has(QuirkDropsBackground) && job.background == "transparent" {
		job.background = "opaque"
	}
}

// outputSize is the pixel size to draw: the requested one, or a standard
// one nearest the first input's shape for auto.
func outputSize(size string, base image.Image) (int, int) {
	if w, h, ok := api.ParseSize(size); ok {
		return w, h
	}
	if base != nil {
		b := base.Bounds()
		switch {
		case b.Dx()*2 > b.Dy()*3-b.Dy()/2 && b.Dx() > b.Dy():
			return 1536, 1024
		case b.Dy() > b.Dx()*5/4:
			return 1024, 1536
		}
	}
	return 1024, 1024
}

func (s *Server) render(job imageJob, i, w, h int) *image.NRGBA {
	prompt := job.prompt
	if job.revised != "" {
		prompt = job.revised
	}
	if i > 0 {
		prompt = fmt.Sprintf("%s #%d", prompt, i+1)
	}
	if job.base != nil {
		out := composeEdit(job.base, job.mask, prompt, w, h)
		stray(out, job.mask, s.cfg.Drift)
		return out
	}
	return drawScene(prompt, w, h, job.background == "transparent")
}

func (s *Server) b64(job imageJob, i int, img image.Image) (string, error) {
	switch job.fault {
	case FaultBadBase64:
		return "@@not*base64@@", nil
	case FaultNotImage:
		return base64.StdEncoding.EncodeToString([]byte("this is plain text, not a picture")), nil
	}
	data, err := s.encodeResult(job, i, img)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(data), nil
}

// meta is the fields every image answer and event repeats.
func meta(job imageJob, w, h int) map[string]any {
	m := map[string]any{
		"background":    orDefault(job.background, "opaque", "auto", "opaque"),
		"output_format": job.format,
	}
	// The answer names only the GPT image qualities; dall-e-3's standard
	// and hd are not reported, as the real service does.
	if q := orDefault(job.quality, "high", "auto", "high"); !strings.HasPrefix(job.model, "dall-e") && (q == "low" || q == "medium" || q == "high") {
		m["quality"] = q
	}
	if size := fmt.Sprintf("%dx%d", w, h); size == "1024x1024" || size == "1536x1024" || size == "1024x1536" {
		m["size"] = size
	}
	return m
}

// withRevised adds the revised prompt a rewriting gateway used.
func withRevised(job imageJob, item map[string]any) map[string]any {
	if job.revised != "" {
		item["revised_prompt"] = job.revised
	}
	return item
}

func orDefault(v, empty, auto, resolved string) string {
	switch v {
	case "":
		return empty
	case auto:
		return resolved
	}
	return v
}

// usage is what an image answer reports, as the service counts it: the
// prompt's text tokens (about four characters each), each reference
// image's tokens, and the output tokens of n pictures of the quality and
// size made (pricing's table, the one OpenAI publishes), so that
// the cost Easel computes from it is what the list prices say.
func usage(job imageJob, w, h int) map[string]any {
	text := len(job.prompt)/4 + 1
	img := 65 * job.inputs // a small image at low fidelity
	if job.fidelity == "high" {
		img = int(pricing.InputImageTokens(true)) * job.inputs
	}
	q := orDefault(job.quality, "high", "auto", "high")
	each := pricing.OutputTokens(q, fmt.Sprintf("%dx%d", w, h))
	if t := newestTokens(job.model, job.quality, w, h); t > 0 {
		each = int64(t)
	}
	if job.format == "gif" {
		each *= int64(max(job.frames, 1)) // every frame is drawn
	}
	if each == 0 { // dall-e's qualities: count by area as gpt-image-1's high
		each = pricing.OutputTokens("high", fmt.Sprintf("%dx%d", w, h))
	}
	out := int(each) * job.n
	return map[string]any{
		"total_tokens": text + img + out, "input_tokens": text + img, "output_tokens": out,
		"input_tokens_details": map[string]any{"text_tokens": text, "image_tokens": img},
	}
}

// encodeResult is picture i of job in the format asked: GIF and SVG are
// made as such, the rest encoded from the drawn picture.
func (s *Server) encodeResult(job imageJob, i int, img image.Image) ([]byte, error) {
	b := img.Bounds()
	switch job.format {
	case "gif":
		return s.encodeGIF(job, i, b.Dx(), b.Dy())
	case "svg":
		return encodeSVG(job, i, b.Dx(), b.Dy()), nil
	}
	data, err := encode(img, job.format, job.compression)
	if err == nil && len(s.cfg.AnswerProfile) > 0 {
		if tagged, ok := imageio.WithProfile(data, s.cfg.AnswerProfile, "answer profile"); ok {
			data = tagged
		}
	}
	if err == nil && !s.cfg.Unsigned {
		data = s.signer.sign(data, job.model)
	}
	return data, err
}

func (s *Server) jsonImages(w http.ResponseWriter, r *http.Request, job imageJob, wd, ht int) {
	data := make([]map[string]any, 0, job.n)
	for i := 0; i < job.n; i++ {
		img := s.render(job, i, wd, ht)
		if job.responseFormat == "url" {
			enc, err := s.encodeResult(job, i, img)
			if err != nil {
				writeError(w, http.StatusInternalServerError, err.Error(), "server_error", "", "")
				return
			}
			data = append(data, withRevised(job, map[string]any{"url": "http://" + r.Host + "/v1/fake-files/" + s.stash(enc)}))
			continue
		}
		b64, err := s.b64(job, i, img)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error(), "server_error", "", "")
			return
		}
		data = append(data, withRevised(job, map[string]any{"b64_json": b64}))
	}
	out := meta(job, wd, ht)
	out["created"] = time.Now().Unix()
	out["data"] = data
	out["usage"] = usage(job, wd, ht)
	s.books.charge(job.model, out["usage"].(map[string]any))
	s.books.bill(r.Context(), keyOf(r), job.model, out["usage"].(map[string]any), job.n)
	body, _ := json.Marshal(out)
	switch job.fault {
	case FaultTruncatedJSON:
		body = body[:len(body)/2]
	case FaultCutStream:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body[:len(body)/2])
		abort(w)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if _, err := w.Write(body); err == nil {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		s.delivered.Add(int64(len(data)))
	}
}

func (s *Server) streamImages(w http.ResponseWriter, r *http.Request, job imageJob, wd, ht int) {
	send := eventStream(w)
	for i := 0; i < job.n; i++ {
		full := s.render(job, i, wd, ht)
		for p := 0; p < job.partials; p++ {
			if !sleep(r.Context(), s.cfg.Pace) {
				return
			}
			pj := job
			if pj.format == "gif" || pj.format == "svg" {
				pj.format = "png" // previews are pictures, not animations or drawings
			}
			b64, _ := s.b64(pj, i, preview(full, p, job.partials))
			ev := meta(job, wd, ht)
			ev["b64_json"], ev["created_at"], ev["partial_image_index"] = b64, time.Now().Unix(), p
			send(job.kind+".partial_image", ev)
			if job.fault == FaultCutStream {
				abort(w)
			}
		}
		if !sleep(r.Context(), s.cfg.Pace) {
			return
		}
		switch job.fault {
		case FaultStreamError:
			send("error", map[string]any{"error": map[string]any{"message": "The image could not be finished: upstream error", "type": "server_error", "code": "upstream_error", "param": nil}})
			return
		case FaultCutStream:
			abort(w)
		}
		b64, err := s.b64(job, i, full)
		if err != nil {
			send("error", map[string]any{"error": map[string]any{"message": err.Error(), "type": "server_error"}})
			return
		}
		ev := withRevised(job, meta(job, wd, ht))
		ev["b64_json"], ev["created_at"], ev["usage"] = b64, time.Now().Unix(), usage(job, wd, ht)
		if i == job.n-1 {
			s.books.charge(job.model, ev["usage"].(map[string]any))
			s.books.bill(r.Context(), keyOf(r), job.model, ev["usage"].(map[string]any), job.n)
		}
		send(job.kind+".completed", ev)
	}
}

// throttled reads at most rate bytes a second on average, as an upload
// over a slow link arrives.
type throttled struct {
	io.ReadCloser
	rate  int64
	start time.Time
	read  int64
}

func (t *throttled) Read(p []byte) (int, error) {
	// Small reads, so the pace is even and a cancelled upload is seen
	// as soon as the client stops.
	p = p[:min(len(p), max(1, int(t.rate/20)))]
	if due := time.Duration(float64(t.read) / float64(t.rate) * float64(time.Second)); due > time.Since(t.start) {
		time.Sleep(due - time.Since(t.start))
	}
	n, err := t.ReadCloser.Read(p)
	t.read += int64(n)
	return n, err
}

// eventStream begins an answer of server-sent events and returns what
// sends one: its type in the payload and as the event's name, flushed.
func eventStream(w http.ResponseWriter) func(typ string, payload map[string]any) {
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return func(typ string, payload map[string]any) {
		payload["type"] = typ
		data, _ := json.Marshal(payload)
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "event: %s\ndata: %s\n\n", typ, data)
		_, _ = w.Write(buf.Bytes())
		if flusher != nil {
			flusher.Flush()
		}
	}
}
