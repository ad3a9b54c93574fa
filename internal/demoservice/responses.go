package demoservice

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	// The formats a turn's inline images come in.
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"
)

// How the server plays the Responses API (Config.Responses).
const (
	// ResponsesServed keeps each answer, as OpenAI does with store: a
	// turn naming it by previous_response_id edits its picture.
	ResponsesServed = ""
	// ResponsesNone answers /v1/responses 404, as a gateway that relays
	// only the Images and Chat APIs does.
	ResponsesNone = "none"
	// ResponsesDrops relays turns without their previous_response_id, as
	// a gateway that rebuilds the body from fields it knows does: each
	// turn starts afresh from the images it carries.
	ResponsesDrops = "drops"
)

// maxAnswers bounds the answers the server keeps for later turns.
const maxAnswers = 256

// turns are the answers the server keeps for later turns: a part with
// its own lock, as the Responses API's store is beside the image work.
type turns struct {
	seq     atomic.Int64
	mu      sync.Mutex
	answers map[string]image.Image
	order   []string // oldest first
}

// turnBody is the part of a Responses API request a turn uses.
type turnBody struct {
	Model      string `json:"model"`
	Previous   string `json:"previous_response_id"`
	Stream     bool   `json:"stream"`
	Background bool   `json:"background"`
	Input      []struct {
		Content []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL string `json:"image_url"`
		} `json:"content"`
	} `json:"input"`
	Tools []struct {
		Type          string `json:"type"`
		Model         string `json:"model"`
		Size          string `json:"size"`
		Quality       string `json:"quality"`
		Background    string `json:"background"`
		OutputFormat  string `json:"output_format"`
		InputFidelity string `json:"input_fidelity"`
		PartialImages int    `json:"partial_images"`
		Mask          struct {
			ImageURL string `json:"image_url"`
		} `json:"input_image_mask"`
	} `json:"tools"`
}

// handleResponses answers a turn through the Responses API's image tool:
// the picture edited is the earlier answer's (previous_response_id) or
// the first image sent; the answer is kept for the next turn.
func (s *Server) handleResponses(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Responses == ResponsesNone {
		invalidURL(w, r)
		return
	}
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 256<<20))
	var body turnBody
	if err := json.Unmarshal(raw, &body); err != nil {
		writeError(w, http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", "", "")
		return
	}
	if body.Background {
		s.Batch.render(w, r, raw)
		return
	}
	if s.cfg.Responses == ResponsesDrops {
		body.Previous = ""
	}
	tool := -1
	for i, t := range body.Tools {
		if t.Type == "image_generation" {
			tool = i
		}
	}
	if tool < 0 {
		writeError(w, http.StatusBadRequest, "Easel's demo draws only through the image_generation tool.", "invalid_request_error", "tools", "")
		return
	}
	t := body.Tools[tool]
	job := imageJob{started: time.Now(), kind: "image_edit", model: orDefault(t.Model, "gpt-image-1", "", ""), size: t.Size, quality: t.Quality,
		background: t.Background, format: t.OutputFormat, fidelity: t.InputFidelity, stream: body.Stream, partials: t.PartialImages, n: 1, compression: 100}
	if !s.turns.inputs(w, &job, body, t.Mask.ImageURL) {
		return
	}
	s.serveTurn(w, r, job, body)
}

// turnInputs reads a turn's prompt, images and mask into job: the
// picture edited is the earlier answer's, else the first image sent. It
// returns false when it has answered with an error.
func (t *turns) inputs(w http.ResponseWriter, job *imageJob, body turnBody, mask string) bool {
	if body.Previous != "" {
		t.mu.Lock()
		job.base = t.answers[body.Previous]
		t.mu.Unlock()
		if job.base == nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("Previous response with id '%s' not found.", body.Previous), "invalid_request_error", "previous_response_id", "previous_response_not_found")
			return false
		}
	}
	for _, in := range body.Input {
		for _, c := range in.Content {
			switch c.Type {
			case "input_text":
				job.prompt = strings.TrimSpace(job.prompt + " " + c.Text)
			case "input_image":
				img, err := decodeDataURL(c.ImageURL)
				if err != nil {
					writeError(w, http.StatusBadRequest, "Invalid image: "+err.Error(), "invalid_request_error", "input", "invalid_image_format")
					return false
				}
				job.inputs++
				if job.base == nil {
					job.base = img
				}
			}
		}
	}
	if mask != "" && job.base != nil {
		m, err := decodeDataURL(mask)
		if err != nil || m.Bounds().Size() != job.base.Bounds().Size() {
			writeError(w, http.StatusBadRequest, "Invalid input_image_mask: it must be an image of the edited picture's dimensions.", "invalid_request_error", "tools", "invalid_image_format")
			return false
		}
		job.mask = m
	}
	return true
}

// serveTurn draws the turn, keeps it under a new id and answers it as a
// Response, whole or as its events.
func (s *Server) serveTurn(w http.ResponseWriter, r *http.Request, job imageJob, body turnBody) {
	if !s.checkModel(w, r, job.model) || !s.validate(w, &job, false) {
		return
	}
	s.remember(job)
	s.mu.Lock()
	s.asked.Previous, s.asked.Turn = body.Previous, true
	s.mu.Unlock()
	if !s.pay(1) {
		writeError(w, http.StatusForbidden, "用户额度不足, 剩余额度: ＄0.000000", "new_api_error", "", "insufficient_user_quota")
		return
	}
	if job.format == "" {
		job.format = "png"
	}
	wd, ht := outputSize(job.size, job.base)
	full := s.render(job, 0, wd, ht)
	b64, err := s.b64(job, 0, full)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error(), "server_error", "", "")
		return
	}
	id := s.turns.keep(full)
	u := usage(job, wd, ht)
	s.books.charge(job.model, u)
	s.books.bill(r.Context(), keyOf(r), job.model, u, 1)
	call := meta(job, wd, ht)
	call["type"], call["id"], call["status"], call["result"] = "image_generation_call", "ig_"+id, "completed", b64
	var previous any
	if body.Previous != "" {
		previous = body.Previous
	}
	resp := map[string]any{"id": id, "object": "response", "created_at": time.Now().Unix(), "status": "completed", "model": body.Model,
		"previous_response_id": previous, "output": []any{call}, "error": nil,
		"usage": map[string]any{"input_tokens": len(job.prompt)/4 + 1, "output_tokens": 12, "total_tokens": len(job.prompt)/4 + 13}}
	if !job.stream {
		if !sleep(r.Context(), 2*s.cfg.Pace) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		data, _ := json.Marshal(resp)
		if _, err := w.Write(data); err == nil {
			s.delivered.Add(1)
		}
		return
	}
	var previews []string
	for p := 0; p < job.partials; p++ {
		pj := job
		pj.format = "png"
		b64, _ := s.b64(pj, 0, preview(full, p, job.partials))
		previews = append(previews, b64)
	}
	if streamTurn(w, r, s.cfg.Pace, resp, previews) {
		s.delivered.Add(1)
	}
}

// streamTurn sends a turn's events at pace: created, each preview, the
// finished image call, completed. It reports whether the client stayed
// to the end.
func streamTurn(w http.ResponseWriter, r *http.Request, pace time.Duration, resp map[string]any, previews []string) bool {
	events, seq := eventStream(w), 0
	send := func(typ string, payload map[string]any) {
		payload["sequence_number"] = seq
		seq++
		events(typ, payload)
	}
	head := map[string]any{"id": resp["id"], "object": "response", "status": "in_progress", "previous_response_id": resp["previous_response_id"], "output": []any{}}
	send("response.created", map[string]any{"response": head})
	call := resp["output"].([]any)[0].(map[string]any)
	for p, b64 := range previews {
		if !sleep(r.Context(), pace) {
			return false
		}
		send("response.image_generation_call.partial_image", map[string]any{"output_index": 0, "item_id": call["id"], "partial_image_index": p, "partial_image_b64": b64})
	}
	if !sleep(r.Context(), pace) {
		return false
	}
	send("response.output_item.done", map[string]any{"output_index": 0, "item": call})
	send("response.completed", map[string]any{"response": resp})
	return true
}

// keep keeps a turn's picture under a new id, forgetting the oldest
// past maxAnswers, and returns the id.
func (t *turns) keep(img image.Image) string {
	id := fmt.Sprintf("resp_demo_%06d", t.seq.Add(1))
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.answers == nil {
		t.answers = map[string]image.Image{}
	}
	t.answers[id] = img
	t.order = append(t.order, id)
	if len(t.order) > maxAnswers {
		delete(t.answers, t.order[0])
		t.order = t.order[1:]
	}
	return id
}

// decodeDataURL reads an inline image.
func decodeDataURL(u string) (image.Image, error) {
	_, payload, ok := strings.Cut(u, ";base64,")
	if !ok || !strings.HasPrefix(u, "data:") {
		return nil, fmt.Errorf("not a base64 data URL")
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	return img, err
}
