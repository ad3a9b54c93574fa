package api

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"easel/internal/catalogue"
)

// The Batch API runs requests within 24 hours at about half price: a
// JSONL file of requests, uploaded through the Files API, becomes a
// batch the service works through in its own time; its answers come back
// as another file. Easel builds each line from the same request a live
// job sends, so the lanes differ only in when and at what price.

// The service's bounds on one batch (OpenAI's, from the API reference):
// a request file of at most 50,000 lines and 200 MB.
const (
	MaxBatchRequests = 50_000
	MaxBatchFile     = 200 << 20
)

// BatchWindow is the only completion window the service takes.
const BatchWindow = "24h"

// The endpoints a batch of image requests names.
const (
	BatchGenerations = "/v1/images/generations"
	BatchEdits       = "/v1/images/edits"
)

// Batches is the Files and Batch APIs of a client's service. It keeps
// the files it uploaded by their content, so an image several requests
// of a batch (or several batches) name goes up once.
type Batches struct {
	c *Client

	mu       sync.Mutex
	uploaded map[[32]byte]string // content hash and purpose → file id
}

// NewBatches is the Files and Batch APIs of c's service.
func NewBatches(c *Client) *Batches {
	return &Batches{c: c, uploaded: map[[32]byte]string{}}
}

// Batch is what the service says of one batch, bounded and cleaned.
type Batch struct {
	ID, Status, Endpoint             string
	InputFile, OutputFile, ErrorFile string
	// Total, Completed and Failed are the request counts, each within
	// 0..MaxBatchRequests.
	Total, Completed, Failed int
	Created, Expires         time.Time
	// Errors are why the service refused the batch itself (a line that
	// is not a request), as it said them.
	Errors []string
}

// The statuses a batch passes through.
const (
	BatchValidating = "validating"
	BatchInProgress = "in_progress"
	BatchFinalizing = "finalizing"
	BatchCompleted  = "completed"
	BatchFailed     = "failed"
	BatchExpired    = "expired"
	BatchCancelling = "cancelling"
	BatchCancelled  = "cancelled"
	// A background render's statuses besides (the Responses API's).
	RenderQueued     = "queued"
	RenderIncomplete = "incomplete"
)

// RenderEndpoint is what a background render's Batch names as its
// endpoint.
const RenderEndpoint = "/v1/responses"

// Final reports a batch the service will do no more of: what it did is
// in its output file, the rest in its error file or never run.
func (b Batch) Final() bool {
	switch b.Status {
	case BatchCompleted, BatchFailed, BatchExpired, BatchCancelled, RenderIncomplete:
		return true
	}
	return false
}

// batchOf reads a batch object. Counts beyond what a batch can hold are
// cut to it: a number from the service reaches a layout and a ledger.
func (bs *Batches) batchOf(body []byte) (Batch, error) {
	root := gjson.ParseBytes(body)
	if root.Get("object").String() != "batch" && !root.Get("status").Exists() {
		return Batch{}, badResponse(catalogue.T("the answer is not a batch"), nil, nil)
	}
	count := func(path string) int {
		return int(min(max(root.Get(path).Int(), 0), MaxBatchRequests))
	}
	when := func(path string) time.Time {
		s := root.Get(path).Int()
		if s <= 0 || s > 1<<40 {
			return time.Time{}
		}
		return time.Unix(s, 0)
	}
	word := func(path string) string { return bs.c.scrub.line(Clean(root.Get(path).String(), false)) }
	b := Batch{ID: word("id"), Status: word("status"), Endpoint: word("endpoint"), InputFile: word("input_file_id"),
		OutputFile: word("output_file_id"), ErrorFile: word("error_file_id"),
		Total: count("request_counts.total"), Completed: count("request_counts.completed"), Failed: count("request_counts.failed"),
		Created: when("created_at"), Expires: when("expires_at")}
	root.Get("errors.data").ForEach(func(_, e gjson.Result) bool {
		b.Errors = append(b.Errors, bs.c.scrub.line(Clean(e.Get("message").String(), false)))
		return len(b.Errors) < 5
	})
	if b.ID == "" || strings.ContainsAny(b.ID, "/?#") {
		return Batch{}, badResponse(catalogue.T("the batch has no usable id"), nil, nil)
	}
	return b, nil
}

// object sends r and reads a small JSON answer: a batch or a file.
func (bs *Batches) object(ctx context.Context, r request) ([]byte, error) {
	return bs.objectOf(ctx, r, 1<<20)
}

// objectOf sends r and reads a JSON answer of at most limit bytes.
func (bs *Batches) objectOf(ctx context.Context, r request, limit int64) ([]byte, error) {
	body, _, err := bs.c.jsonAnswer(ctx, r, limit, catalogue.T("the answer is not JSON"))
	return body, err
}

// Upload sends one file through the Files API for purpose ("batch"
// for a request file and for the images its edits name) and returns its
// id. It is read from disk as it goes when it has a path.
func (bs *Batches) Upload(ctx context.Context, f InputImage, purpose string) (id string, err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	data, err := f.Bytes()
	if err != nil {
		return "", err
	}
	sum := sha256.New()
	sum.Write([]byte(purpose + "\x00"))
	sum.Write(data)
	var key [32]byte
	sum.Sum(key[:0])
	bs.mu.Lock()
	id, done := bs.uploaded[key]
	bs.mu.Unlock()
	if done {
		return id, nil
	}
	defer func() {
		if err == nil {
			bs.mu.Lock()
			bs.uploaded[key] = id
			bs.mu.Unlock()
		}
	}()
	body := &streamedBody{}
	w := multipart.NewWriter(body)
	_ = w.WriteField("purpose", purpose)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", multipart.FileContentDisposition("file", partFileName(f.Name)))
	h.Set("Content-Type", contentTypeOr(f.ContentType, f.head()))
	if _, err := w.CreatePart(h); err != nil {
		return "", err
	}
	body.add(f)
	if err := w.Close(); err != nil {
		return "", err
	}
	r := request{method: http.MethodPost, path: "files", upload: body, contentType: w.FormDataContentType(), overall: bs.c.cfg.ImageTimeout}
	answer, err := bs.object(ctx, r)
	if err != nil {
		return "", err
	}
	id = bs.c.scrub.line(Clean(gjson.GetBytes(answer, "id").String(), false))
	if id == "" || strings.ContainsAny(id, "/?#") {
		return "", badResponse(catalogue.T("the uploaded file has no usable id"), nil, nil)
	}
	return id, nil
}

// Create starts a batch of the requests in the uploaded file input,
// all to endpoint, to be done within BatchWindow.
func (bs *Batches) Create(ctx context.Context, input, endpoint string, metadata map[string]string) (b Batch, err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	r, err := jsonRequest("batches", map[string]any{"input_file_id": input, "endpoint": endpoint, "completion_window": BatchWindow, "metadata": metadata})
	if err != nil {
		return Batch{}, err
	}
	answer, err := bs.object(ctx, r)
	if err != nil {
		return Batch{}, err
	}
	return bs.batchOf(answer)
}

// Status is what the service says of batch id now.
func (bs *Batches) Status(ctx context.Context, id string) (b Batch, err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	answer, err := bs.object(ctx, request{method: http.MethodGet, path: "batches/" + url.PathEscape(id)})
	if err != nil {
		return Batch{}, err
	}
	return bs.batchOf(answer)
}

// Cancel asks the service to stop batch id: what it finished stays
// in its output file.
func (bs *Batches) Cancel(ctx context.Context, id string) (b Batch, err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	answer, err := bs.object(ctx, request{method: http.MethodPost, path: "batches/" + url.PathEscape(id) + "/cancel"})
	if err != nil {
		return Batch{}, err
	}
	return bs.batchOf(answer)
}

// Offered asks whether the service takes batches at all (a
// listing of one): most gateways relay only the live endpoints. why is
// the answer in words when it does not.
func (bs *Batches) Offered(ctx context.Context) (ok bool, why string, err error) {
	_, err = bs.object(ctx, request{method: http.MethodGet, path: "batches?limit=1"})
	var e *Error
	switch {
	case err == nil:
		return true, "", nil
	case errors.As(err, &e) && (e.Status == http.StatusNotFound || e.Status == http.StatusMethodNotAllowed || e.Status == http.StatusNotImplemented):
		return false, catalogue.F("the service has no Batch API (HTTP %d)", e.Status), nil
	case errors.As(err, &e) && e.Kind == KindBadResponse:
		return false, catalogue.T("the service's answer to a batch listing is not one"), nil
	}
	return false, "", bs.c.scrub.err(err)
}

// Download copies the content of file id into dst, at most limit
// bytes: a batch's output, kept on disk before it is read.
func (bs *Batches) Download(ctx context.Context, id string, dst io.Writer, limit int64) (err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	resp, _, cancel, err := bs.c.call(ctx, request{method: http.MethodGet, path: "files/" + url.PathEscape(id) + "/content", overall: bs.c.cfg.ImageTimeout})
	if err != nil {
		return err
	}
	defer cancel()
	defer resp.Body.Close()
	if resp.ContentLength > limit {
		return &TooLongError{Limit: limit, Said: resp.ContentLength}
	}
	n, err := io.Copy(dst, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return bs.c.readErr(ctx, err, "")
	}
	if n > limit {
		return &TooLongError{Limit: limit}
	}
	return nil
}

// Render starts one image request in the Responses API's background
// mode: the service keeps working on it without a connection, and it is
// read later by RenderStatus (a generation when req has no images). It
// is a Batch of one whose id is the response's; the profile's text model
// calls the image tool, as a thread's turn does.
func (bs *Batches) Render(ctx context.Context, req EditRequest) (b Batch, err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	check := req.Check
	if len(req.Images) == 0 {
		check = GenerateRequest{Prompt: req.Prompt, ImageOptions: req.ImageOptions}.Check
	}
	if err := check(bs.c.cfg.Limits); err != nil {
		return Batch{}, err
	}
	req.Stream, req.PartialImages = false, 0
	req.Turn = &ResponsesTurn{}
	r, err := turnRequest(req, bs.c.cfg.TurnModel)
	if err != nil {
		return Batch{}, err
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		return Batch{}, err
	}
	body["background"] = true
	if r, err = jsonRequest("responses", body); err != nil {
		return Batch{}, err
	}
	r.model = req.Model
	answer, err := bs.object(ctx, r)
	if err != nil {
		return Batch{}, err
	}
	b, _, err = bs.renderOf(answer)
	return b, err
}

// RenderStatus is what the service says of background render id now,
// and its picture once it is done.
func (bs *Batches) RenderStatus(ctx context.Context, id string) (b Batch, res *ImageResult, err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	r := request{method: http.MethodGet, path: "responses/" + url.PathEscape(id), overall: bs.c.cfg.ImageTimeout}
	answer, err := bs.objectOf(ctx, r, bs.c.cfg.MaxResponse)
	if err != nil {
		return Batch{}, nil, err
	}
	return bs.renderOf(answer)
}

// CancelRender asks the service to stop background render id.
func (bs *Batches) CancelRender(ctx context.Context, id string) (b Batch, err error) {
	defer func() { err = bs.c.scrub.err(err) }()
	answer, err := bs.object(ctx, request{method: http.MethodPost, path: "responses/" + url.PathEscape(id) + "/cancel"})
	if err != nil {
		return Batch{}, err
	}
	b, _, err = bs.renderOf(answer)
	return b, err
}

// renderOf reads a Response object as a Batch of one, with its picture
// when it is done.
func (bs *Batches) renderOf(body []byte) (Batch, *ImageResult, error) {
	root := gjson.ParseBytes(body)
	word := func(path string) string { return bs.c.scrub.line(Clean(root.Get(path).String(), false)) }
	b := Batch{ID: word("id"), Status: word("status"), Endpoint: RenderEndpoint, Total: 1}
	if b.ID == "" || strings.ContainsAny(b.ID, "/?#") || root.Get("object").String() != "response" {
		return Batch{}, nil, badResponse(catalogue.T("the answer is not a response"), nil, nil)
	}
	if s := root.Get("created_at").Int(); s > 0 && s < 1<<40 {
		b.Created = time.Unix(s, 0)
	}
	switch b.Status {
	case BatchCompleted:
		res, err := responseResult(root, nil)
		if err != nil {
			b.Failed, b.Errors = 1, []string{err.Error()}
			return b, nil, nil
		}
		res.Response = bs.c.scrub.short(res.Response, 200)
		b.Completed = 1
		return b, res, nil
	case BatchFailed, RenderIncomplete:
		b.Failed = 1
		if m := word("error.message"); m != "" {
			b.Errors = []string{m}
		} else if m := word("incomplete_details.reason"); m != "" {
			b.Errors = []string{m}
		}
	}
	return b, nil, nil
}

// batchLine is one request of a batch's file.
type batchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// GenerateLine is a generation as a line of a batch's request file: the
// body a live request sends, unstreamed (a batch answers whole).
func GenerateLine(id string, req GenerateRequest) ([]byte, error) {
	req.Stream, req.PartialImages = false, 0
	r, err := generateRequest(req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(batchLine{CustomID: id, Method: http.MethodPost, URL: BatchGenerations, Body: r.body})
}

// editJSON is EditImageBodyJsonParam: an edit whose images are named by
// the ids of files uploaded before, the only form a batch line can carry.
type editJSON struct {
	Prompt string    `json:"prompt"`
	Images []fileRef `json:"images"`
	Mask   *fileRef  `json:"mask,omitempty"`
	imageFields
	InputFidelity string `json:"input_fidelity,omitempty"`
}

type fileRef struct {
	FileID string `json:"file_id"`
}

// EditLine is an edit as a line of a batch's request file, its images
// and mask named by the ids their uploads were given (files, in the
// request's order; mask "" for none).
func EditLine(id string, req EditRequest, files []string, mask string) ([]byte, error) {
	if len(files) != len(req.Images) {
		return nil, errors.New(catalogue.F("%d images, %d uploaded files", len(req.Images), len(files)))
	}
	o := req.ImageOptions
	body := editJSON{Prompt: req.Prompt, imageFields: newImageFields(o), InputFidelity: req.InputFidelity}
	for _, f := range files {
		body.Images = append(body.Images, fileRef{FileID: f})
	}
	if mask != "" {
		body.Mask = &fileRef{FileID: mask}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	return json.Marshal(batchLine{CustomID: id, Method: http.MethodPost, URL: BatchEdits, Body: data})
}

// BatchAnswer is one line of a batch's output or error file: the answer
// to the request custom_id names, or why there is none.
type BatchAnswer struct {
	CustomID string
	Result   *ImageResult
	Err      error
}

// ReadAnswers reads a batch's output or error file line by line,
// each line at most MaxResponse bytes, and hands each answer to each,
// its images checked as a live answer's are (most: the most images a
// line may bring). A line that is not an answer is skipped.
func (bs *Batches) ReadAnswers(ctx context.Context, r io.Reader, model string, most int, each func(BatchAnswer) error) error {
	lines := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(lines, bs.c.cfg.MaxResponse)
		if len(bytes.TrimSpace(line)) > 0 {
			if a, ok := bs.batchAnswer(ctx, line, model, most); ok {
				if err := each(a); err != nil {
					return err
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine is the next line of r; a line longer than limit is skipped
// whole (nil), so the next one still reads.
func readLine(r *bufio.Reader, limit int64) ([]byte, error) {
	var line []byte
	over := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !over && int64(len(line)+len(chunk)) > limit {
			over, line = true, nil
		} else if !over {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

// batchAnswer reads one answer line.
func (bs *Batches) batchAnswer(ctx context.Context, line []byte, model string, most int) (BatchAnswer, bool) {
	root := gjson.ParseBytes(line)
	id := root.Get("custom_id").String()
	if id == "" || len(id) > 64 {
		return BatchAnswer{}, false
	}
	a := BatchAnswer{CustomID: id}
	status := int(root.Get("response.status_code").Int())
	body := root.Get("response.body")
	if e := root.Get("error"); e.Exists() && e.Type != gjson.Null && !body.Exists() {
		raw := fmt.Sprintf(`{"error":%s}`, e.Raw)
		a.Err = bs.c.scrub.error(classifyHTTP(http.StatusBadRequest, nil, []byte(raw), model))
		return a, true
	}
	if status/100 != 2 {
		a.Err = bs.c.scrub.error(classifyHTTP(max(status, 400), nil, []byte(body.Raw), model))
		return a, true
	}
	resp := &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body.Raw)), ContentLength: int64(len(body.Raw))}
	if rid := root.Get("response.request_id").String(); rid != "" {
		resp.Header.Set("X-Request-Id", rid)
	}
	res, err := bs.c.readImageJSON(ctx, resp, model, wanted{images: max(most, 1)})
	if err != nil {
		a.Err = bs.c.scrub.err(err)
		return a, true
	}
	res.RequestID = bs.c.scrub.line(requestID(resp.Header))
	for i := range res.Images {
		res.Images[i].RevisedPrompt = Clean(bs.c.scrub.redact(res.Images[i].RevisedPrompt), true)
	}
	a.Result = res
	return a, true
}
