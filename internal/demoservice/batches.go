package demoservice

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"sort"
	"strings"
	"sync"
	"time"
)

// How the server plays the Files and Batch APIs (Config.Batches).
const (
	// BatchesServed takes files and batches, as OpenAI does.
	BatchesServed = ""
	// BatchesNone answers /v1/files and /v1/batches 404, as most
	// gateways do: they relay only the live endpoints.
	BatchesNone = "none"
)

// The bounds the service puts on a batch's request file.
const (
	maxBatchLines = 50_000
	maxUpload     = 200 << 20
)

// BatchWork is the Files and Batch APIs' state: a part with its own lock.
// A batch moves on when it is asked about, by the time that has passed
// (Config.BatchPace a step): validating for one step, then one request a
// step, then finalizing for one step; with no pace it is done when first
// asked about. Its requests are answered by the server's own image
// handlers, so a batch's pictures are drawn as a live request's are.
type BatchWork struct {
	// serve answers a batch's requests: the server's own routes.
	serve       http.Handler
	pace        time.Duration
	expireAfter int

	mu      sync.Mutex
	seq     int
	files   map[string]demoFile
	batches map[string]*demoBatch
	// renders are the Responses API's background responses: each is
	// answered when made and shown queued, in progress, then done, a
	// step of pace apart.
	renders map[string]*demoRender
}

type demoRender struct {
	created   time.Time
	answer    map[string]any // the response as it ends
	cancelled bool
}

type demoFile struct {
	name, purpose string
	data          []byte
	created       int64
}

type demoBatch struct {
	id, endpoint, input, status string
	output, errors              string
	created                     time.Time
	lines                       []batchRequest
	done                        int // lines answered
	outLines, errLines          [][]byte
	cancelled                   bool
	// answering is set while one request asks the handlers for a line:
	// a second status read meanwhile does not answer the same line.
	answering bool
}

type batchRequest struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// newBatchWork serves the Files and Batch APIs on mux, answering each
// batch's requests through it; none for a gateway without them.
func newBatchWork(cfg Config, mux *http.ServeMux) *BatchWork {
	bw := &BatchWork{serve: mux, pace: cfg.BatchPace, expireAfter: cfg.BatchExpireAfter, files: map[string]demoFile{}, batches: map[string]*demoBatch{},
		renders: map[string]*demoRender{}}
	if cfg.Responses != ResponsesNone {
		mux.HandleFunc("GET /v1/responses/{id}", bw.handleRender(false))
		mux.HandleFunc("POST /v1/responses/{id}/cancel", bw.handleRender(true))
	}
	if cfg.Batches == BatchesNone {
		return bw
	}
	mux.HandleFunc("POST /v1/files", bw.handleUpload)
	mux.HandleFunc("GET /v1/files/{id}/content", bw.handleFileContent)
	mux.HandleFunc("POST /v1/batches", bw.handleCreateBatch)
	mux.HandleFunc("GET /v1/batches", bw.handleListBatches)
	mux.HandleFunc("GET /v1/batches/{id}", bw.handleBatch)
	mux.HandleFunc("POST /v1/batches/{id}/cancel", bw.handleCancelBatch)
	return bw
}

func (bw *BatchWork) handleUpload(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload+1<<20)
	if err := r.ParseMultipartForm(32 << 20); err != nil {
		writeError(w, http.StatusBadRequest, "The request body must be multipart/form-data: "+err.Error(), "invalid_request_error", "", "")
		return
	}
	purpose := r.FormValue("purpose")
	if purpose != "batch" && purpose != "vision" && purpose != "user_data" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid value for 'purpose': %q.", purpose), "invalid_request_error", "purpose", "")
		return
	}
	file, head, err := r.FormFile("file")
	if err != nil {
		writeError(w, http.StatusBadRequest, "Missing required parameter: 'file'.", "invalid_request_error", "file", "")
		return
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxUpload+1))
	if err != nil || len(data) > maxUpload {
		writeError(w, http.StatusBadRequest, "File is too large: at most 200 MB.", "invalid_request_error", "file", "")
		return
	}
	bw.mu.Lock()
	bw.seq++
	id := fmt.Sprintf("file-demo%06d", bw.seq)
	now := time.Now().Unix()
	bw.files[id] = demoFile{name: head.Filename, purpose: purpose, data: data, created: now}
	bw.mu.Unlock()
	writeJSON(w, map[string]any{"id": id, "object": "file", "bytes": len(data), "created_at": now, "filename": head.Filename, "purpose": purpose, "status": "processed"})
}

func (bw *BatchWork) handleFileContent(w http.ResponseWriter, r *http.Request) {
	bw.mu.Lock()
	f, ok := bw.files[r.PathValue("id")]
	bw.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("No such File object: %s", r.PathValue("id")), "invalid_request_error", "id", "")
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", fmt.Sprint(len(f.data)))
	_, _ = w.Write(f.data)
}

func (bw *BatchWork) handleCreateBatch(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Input    string `json:"input_file_id"`
		Endpoint string `json:"endpoint"`
		Window   string `json:"completion_window"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", "", "")
		return
	}
	if body.Window != "24h" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid value for 'completion_window': %q. Supported values are: '24h'.", body.Window), "invalid_request_error", "completion_window", "")
		return
	}
	if body.Endpoint != "/v1/images/generations" && body.Endpoint != "/v1/images/edits" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid value for 'endpoint': %q.", body.Endpoint), "invalid_request_error", "endpoint", "")
		return
	}
	bw.mu.Lock()
	defer bw.mu.Unlock()
	f, ok := bw.files[body.Input]
	if !ok || f.purpose != "batch" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Invalid 'input_file_id': %q.", body.Input), "invalid_request_error", "input_file_id", "")
		return
	}
	bw.seq++
	b := &demoBatch{id: fmt.Sprintf("batch_demo%06d", bw.seq), endpoint: body.Endpoint, input: body.Input, status: "validating", created: time.Now()}
	b.lines, b.status = readBatchFile(f.data, body.Endpoint)
	bw.batches[b.id] = b
	writeJSON(w, bw.batchObject(b))
}

// readBatchFile reads a request file: each line a request to endpoint
// with a custom_id of its own. A file that breaks a rule fails the
// batch whole, as the service's validation does.
func readBatchFile(data []byte, endpoint string) ([]batchRequest, string) {
	var out []batchRequest
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l batchRequest
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.CustomID == "" || seen[l.CustomID] || l.Method != http.MethodPost || l.URL != endpoint || len(out) == maxBatchLines {
			return nil, "failed"
		}
		seen[l.CustomID] = true
		out = append(out, l)
	}
	if sc.Err() != nil || len(out) == 0 {
		return nil, "failed"
	}
	return out, "validating"
}

func (bw *BatchWork) handleBatch(w http.ResponseWriter, r *http.Request) {
	b, ok := bw.advance(r.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("No batch found with id '%s'.", r.PathValue("id")), "invalid_request_error", "", "")
		return
	}
	writeJSON(w, b)
}

func (bw *BatchWork) handleCancelBatch(w http.ResponseWriter, r *http.Request) {
	bw.mu.Lock()
	b, ok := bw.batches[r.PathValue("id")]
	if ok && (b.status == "validating" || b.status == "in_progress") {
		b.cancelled, b.status = true, "cancelling"
	}
	bw.mu.Unlock()
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("No batch found with id '%s'.", r.PathValue("id")), "invalid_request_error", "", "")
		return
	}
	obj, _ := bw.advance(b.id)
	writeJSON(w, obj)
}

func (bw *BatchWork) handleListBatches(w http.ResponseWriter, _ *http.Request) {
	bw.mu.Lock()
	ids := make([]string, 0, len(bw.batches))
	for id := range bw.batches {
		ids = append(ids, id)
	}
	bw.mu.Unlock()
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	data := []any{}
	for _, id := range ids[:min(len(ids), 20)] {
		if b, ok := bw.advance(id); ok {
			data = append(data, b)
		}
	}
	writeJSON(w, map[string]any{"object": "list", "data": data, "has_more": len(ids) > 20})
}

// advance moves batch id on by the time passed and returns what the
// service says of it now.
func (bw *BatchWork) advance(id string) (map[string]any, bool) {
	bw.mu.Lock()
	b, ok := bw.batches[id]
	bw.mu.Unlock()
	if !ok {
		return nil, false
	}
	// The requests are answered outside the lock: each is drawn as a
	// live request is, which takes a while. The batch moves on only as
	// far as was due when it was asked about.
	steps := int(1 << 30)
	if bw.pace > 0 {
		steps = int(time.Since(b.created) / bw.pace)
	}
	for {
		bw.mu.Lock()
		next, due := -1, false
		if !b.answering {
			next, due = bw.nextStep(b, steps)
			b.answering = next >= 0
		}
		bw.mu.Unlock()
		if !due {
			break
		}
		if next >= 0 {
			line := bw.answerLine(b, b.lines[next])
			bw.mu.Lock()
			if strings.Contains(string(line), `"status_code":200`) {
				b.outLines = append(b.outLines, line)
			} else {
				b.errLines = append(b.errLines, line)
			}
			b.done++
			b.answering = false
			bw.mu.Unlock()
		}
	}
	bw.mu.Lock()
	defer bw.mu.Unlock()
	return bw.batchObject(b), true
}

// nextStep moves b's status on as far as steps allow and says which
// request to answer next (-1 for none), and whether anything is due.
// Called with the lock held.
func (bw *BatchWork) nextStep(b *demoBatch, steps int) (next int, due bool) {
	expire := bw.expireAfter
	switch b.status {
	case "validating":
		if steps >= 1 {
			b.status = "in_progress"
			return -1, true
		}
	case "in_progress":
		if expire > 0 && b.done >= expire {
			bw.finish(b, "expired")
			return -1, false
		}
		if b.done < len(b.lines) && steps >= 1+b.done+1 {
			return b.done, true
		}
		if b.done == len(b.lines) {
			b.status = "finalizing"
			return -1, true
		}
	case "finalizing":
		if steps >= len(b.lines)+2 {
			bw.finish(b, "completed")
		}
	case "cancelling":
		bw.finish(b, "cancelled")
	}
	return -1, false
}

// finish writes b's output and error files and ends it with status: a
// request never run (expired, cancelled) is in the error file.
func (bw *BatchWork) finish(b *demoBatch, status string) {
	for _, l := range b.lines[b.done:] {
		code, msg := "batch_expired", "This request could not be executed before the completion window expired."
		if status == "cancelled" {
			code, msg = "batch_cancelled", "This request was not executed because the batch was cancelled."
		}
		line, _ := json.Marshal(map[string]any{"id": "batch_req_" + l.CustomID, "custom_id": l.CustomID, "response": nil,
			"error": map[string]any{"code": code, "message": msg}})
		b.errLines = append(b.errLines, line)
	}
	keep := func(lines [][]byte, name string) string {
		if len(lines) == 0 {
			return ""
		}
		bw.seq++
		id := fmt.Sprintf("file-demo%06d", bw.seq)
		bw.files[id] = demoFile{name: name, purpose: "batch_output", data: append(bytes.Join(lines, []byte("\n")), '\n'), created: time.Now().Unix()}
		return id
	}
	b.output, b.errors = keep(b.outLines, b.id+"_output.jsonl"), keep(b.errLines, b.id+"_error.jsonl")
	b.status = status
}

// answerLine answers one request of a batch by the server's own handler
// and writes it as an output line. An edit's images, named by file id,
// go to the handler as the multipart upload a live edit sends.
func (bw *BatchWork) answerLine(b *demoBatch, l batchRequest) []byte {
	var req *http.Request
	if b.endpoint == "/v1/images/edits" {
		req = bw.editFromFiles(l.Body)
	} else {
		req = httptest.NewRequest(http.MethodPost, b.endpoint, bytes.NewReader(l.Body))
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	if req == nil {
		writeError(rec, http.StatusBadRequest, "Invalid 'file_id' in 'images': no such file.", "invalid_request_error", "images", "")
	} else {
		bw.serve.ServeHTTP(rec, req)
	}
	body := rec.Body.Bytes()
	if !json.Valid(body) {
		body, _ = json.Marshal(map[string]any{"error": map[string]any{"message": strings.TrimSpace(string(body)), "type": "server_error"}})
	}
	line, _ := json.Marshal(map[string]any{"id": "batch_req_" + l.CustomID, "custom_id": l.CustomID,
		"response": map[string]any{"status_code": rec.Code, "request_id": rec.Header().Get("X-Request-Id"), "body": json.RawMessage(body)}, "error": nil})
	return line
}

// editFromFiles makes an edit's JSON body (images by file id) into the
// multipart request the edit handler reads; nil when a file is unknown.
func (bw *BatchWork) editFromFiles(raw json.RawMessage) *http.Request {
	var body map[string]any
	if json.Unmarshal(raw, &body) != nil {
		return nil
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	file := func(field string, ref any) bool {
		m, _ := ref.(map[string]any)
		id, _ := m["file_id"].(string)
		bw.mu.Lock()
		f, ok := bw.files[id]
		bw.mu.Unlock()
		if !ok {
			return false
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", multipart.FileContentDisposition(field, f.name))
		h.Set("Content-Type", http.DetectContentType(f.data))
		part, _ := w.CreatePart(h)
		_, _ = part.Write(f.data)
		return true
	}
	images, _ := body["images"].([]any)
	for _, ref := range images {
		if !file("image[]", ref) {
			return nil
		}
	}
	if m, ok := body["mask"]; ok && !file("mask", m) {
		return nil
	}
	for k, v := range body {
		if k == "images" || k == "mask" {
			continue
		}
		_ = w.WriteField(k, strings.Trim(fmt.Sprint(v), `"`))
	}
	_ = w.Close()
	req := httptest.NewRequest(http.MethodPost, "/v1/images/edits", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return req
}

// batchObject is b as the Batch API shows it. Called with the lock held.
func (bw *BatchWork) batchObject(b *demoBatch) map[string]any {
	failed := len(b.errLines)
	completed := len(b.outLines)
	obj := map[string]any{"id": b.id, "object": "batch", "endpoint": b.endpoint, "input_file_id": b.input, "completion_window": "24h",
		"status": b.status, "created_at": b.created.Unix(), "expires_at": b.created.Add(24 * time.Hour).Unix(),
		"request_counts": map[string]int{"total": len(b.lines), "completed": completed, "failed": failed}}
	if b.output != "" {
		obj["output_file_id"] = b.output
	}
	if b.errors != "" {
		obj["error_file_id"] = b.errors
	}
	if b.status == "failed" {
		obj["errors"] = map[string]any{"object": "list", "data": []any{map[string]any{"code": "invalid_request", "message": "The request file is not a list of requests to the batch's endpoint, each with its own custom_id."}}}
	}
	return obj
}

// render takes a background response (raw, its body): it is answered
// now, through the routes as a request in the foreground, and shown
// queued until its steps have passed.
func (bw *BatchWork) render(w http.ResponseWriter, r *http.Request, raw []byte) {
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	delete(body, "background")
	body["stream"] = false
	fore, _ := json.Marshal(body)
	req := httptest.NewRequest(http.MethodPost, "/v1/responses", bytes.NewReader(fore))
	req.Header = r.Header.Clone()
	rec := httptest.NewRecorder()
	bw.serve.ServeHTTP(rec, req)
	var answer map[string]any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &answer) != nil {
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		return
	}
	id, _ := answer["id"].(string)
	answer["background"] = true
	bw.mu.Lock()
	bw.renders[id] = &demoRender{created: time.Now(), answer: answer}
	obj := bw.renderObject(bw.renders[id])
	bw.mu.Unlock()
	writeJSON(w, obj)
}

// renderObject is a background response as it stands now. Called with
// the lock held.
func (bw *BatchWork) renderObject(d *demoRender) map[string]any {
	steps := 1 << 30
	if bw.pace > 0 {
		steps = int(time.Since(d.created) / bw.pace)
	}
	obj := map[string]any{}
	for k, v := range d.answer {
		obj[k] = v
	}
	switch {
	case d.cancelled:
		obj["status"], obj["output"] = "cancelled", []any{}
	case steps < 1:
		obj["status"], obj["output"] = "queued", []any{}
	case steps < 2:
		obj["status"], obj["output"] = "in_progress", []any{}
	}
	return obj
}

// handleRender answers a background response's status, cancelling it
// first when cancel is set and it has not ended.
func (bw *BatchWork) handleRender(cancel bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bw.mu.Lock()
		d, ok := bw.renders[r.PathValue("id")]
		var obj map[string]any
		if ok {
			if st := bw.renderObject(d)["status"]; cancel && (st == "queued" || st == "in_progress") {
				d.cancelled = true
			}
			obj = bw.renderObject(d)
		}
		bw.mu.Unlock()
		if !ok {
			writeError(w, http.StatusNotFound, fmt.Sprintf("Response with id '%s' not found.", r.PathValue("id")), "invalid_request_error", "", "")
			return
		}
		writeJSON(w, obj)
	}
}

// Batches is how many batches the service was given: a test's count of
// what reached the Batch API.
func (bw *BatchWork) Batches() int {
	bw.mu.Lock()
	defer bw.mu.Unlock()
	return len(bw.batches)
}

// Uploads is how many files of purpose were uploaded.
func (bw *BatchWork) Uploads(purpose string) int {
	bw.mu.Lock()
	defer bw.mu.Unlock()
	n := 0
	for _, f := range bw.files {
		if f.purpose == purpose {
			n++
		}
	}
	return n
}
