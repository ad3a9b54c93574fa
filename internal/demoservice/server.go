// Package demoservice is the demo service Easel ships: a local
// OpenAI-compatible service with the
// four endpoints Easel speaks, with real PNG, JPEG and WebP images drawn
// from the prompt, real SSE streams at a realistic pace, bearer auth, a
// model list, an account balance that runs out, and faults injected per
// request. Tests, `easel serve-demo`, `easel --demo` and the benchmarks use
// it, so none of them reaches the internet or spends money.
//
// It ships in the program (File ▸ Use the demo service, `--demo`,
// `serve-demo`), so it is named for what a user meets; the tests use the
// same service as their stand-in (a working implementation that takes
// shortcuts: images drawn locally, no model), with its own tests here.
// What a user sees is "the demo service"; what code sees is demoservice.
package demoservice

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config shapes the fake service.
type Config struct {
	// Key is the bearer token required; empty accepts any request, like a
	// local server.
	Key string
	// Models is the listed model list; nil uses DefaultModels.
	Models []ModelInfo
	// Balance is how many images the account can pay for; 0 is unlimited.
	Balance int
	// Pace is the delay between stream events and before an unstreamed
	// answer; 0 answers at once (tests), the demo uses a realistic pace.
	Pace time.Duration
	// SlowFirstByte is how long the slow-first-byte fault waits.
	SlowFirstByte time.Duration
	// Quirks are the gateway behaviours the server takes on (gateway.go);
	// none answers by the spec.
	Quirks []Quirk
	// ProxyLimit is how long an answer may take under QuirkProxyCut;
	// 0 uses DefaultProxyLimit.
	ProxyLimit time.Duration
	// Groups, keyed by bearer key, make the server a gateway with
	// account groups (new-api, one-api): each key belongs to a group that
	// lists and serves only its own models, and a model of another group
	// is answered "No available channel for model X under group G".
	Groups map[string]Group
	// Credit is the account's credit in dollars that the billing
	// endpoints report, less what was used; 0 uses DefaultCredit.
	Credit float64
	// NoBilling answers the billing endpoints 404, as a service without
	// them (OpenAI's own, for an API key) does.
	NoBilling bool
	// Console makes the server bill each key of Groups in quota units
	// as the gateway named ("new-api" or "one-api") does and serve its
	// console endpoints, or ("sub2api") serve each key's rate
	// (console.go); "" is none of them.
	Console string
	// Display is the console's quota_display_type: USD (default), CNY
	// or TOKENS.
	Display string
	// Today is the service's day (YYYY-MM-DD) for what changed by date
	// (gpt-image-2's transparency); "" is the real day.
	Today string
	// Unsigned answers without Content Credentials, as a gateway that
	// re-encodes what the provider made does; by default each PNG, JPEG
	// and WebP answer carries a C2PA manifest store, as OpenAI signs
	// what its image models make.
	Unsigned bool
	// AnswerProfile, when set, is an ICC profile each PNG and JPEG
	// answer declares (its numbers as drawn): a route that answers in
	// Display P3, say, whose pictures must be read in that space.
	AnswerProfile []byte
	// UploadRate is how many bytes a second the service reads of an
	// edit's upload, as a slow link delivers them; 0 reads them as fast
	// as they come.
	UploadRate int64
	// Drift makes each edit stray outside the marks, as a model that
	// repaints the whole picture does: the top Drift share of the rows
	// of the area the mask protects (of the whole picture, without a
	// mask) has its colours turned half-way round the wheel, far past
	// any re-encoding. 0 keeps the usual faint bleed.
	Drift float64
	// Responses is how the server plays the Responses API: served with
	// stored answers (""), absent ("none", 404) or relayed without
	// previous_response_id ("drops").
	Responses string
	// Batches is how the server plays the Files and Batch APIs: served
	// ("") or absent ("none", 404).
	Batches string
	// BatchPace is how long each step of a batch takes (validating, each
	// request, finalizing): the 24 hours in minutes. 0 finishes a batch
	// when it is first asked about.
	BatchPace time.Duration
	// BatchExpireAfter, when set, lets a batch's window run out after so
	// many of its requests were answered: the rest expire.
	BatchExpireAfter int
}

// Group is one account group of a gateway: its name and its models,
// and for Console its ratio and a key's limit.
type Group struct {
	Name   string
	Models []string
	// Ratio is the group's price ratio (0 is 1).
	Ratio float64
	// Limit is the key's own quota limit in units; 0 is unlimited (the
	// account's wallet pays).
	Limit int64
}

// Gateway kinds the Console plays.
const (
	ConsoleNewAPI = "new-api"
	ConsoleOneAPI = "one-api"
)

// ModelInfo is one listed model.
type ModelInfo struct {
	ID            string   `json:"id"`
	EndpointTypes []string `json:"supported_endpoint_types,omitempty"`
}

// DefaultModels mixes image and chat models, as a gateway lists them.
var DefaultModels = []ModelInfo{
	{"gpt-image-1", []string{"image-generation"}},
	{"gpt-image-1-mini", []string{"image-generation"}},
	{"gpt-image-1.5", []string{"image-generation"}},
	{"gpt-image-2", []string{"image-generation"}},
	{"gpt-image-2.5-flare", []string{"image-generation"}},
	{"gpt-image-2.6-flare", []string{"image-generation"}},
	{"gpt-image-2.6-sunburst", []string{"image-generation"}},
	{"dall-e-3", []string{"image-generation"}},
	{"gpt-4o-mini", []string{"openai"}},
	{"gpt-4.1", []string{"openai"}},
	{"gpt-5-mini", []string{"openai"}},
	{"deepseek-reasoner", []string{"openai"}},
}

// ServedUnlisted are models the service serves but does not list, as
// gateways' /v1/models lagged GPT Image 2.5's ids for days while
// generation worked: a typed id must be enough.
var ServedUnlisted = []string{"gpt-image-2.5-sunburst"}

// DemoPace is the stream pace of the demo service: slow enough to watch
// previews arrive, quick enough not to bore.
const DemoPace = 700 * time.Millisecond

// Server is the fake service. It is an http.Handler.
type Server struct {
	cfg    Config
	mux    *http.ServeMux
	reqs   atomic.Int64
	flying atomic.Int64 // image requests being answered now
	peak   atomic.Int64 // the most image requests answered at once
	images atomic.Int64 // image requests answered in all
	// delivered counts the images whose whole answer was written to a
	// client still there: what a client that was then killed had in hand.
	delivered atomic.Int64
	mu        sync.Mutex
	balance   int
	models    map[string]bool
	files     map[string][]byte // images served by URL, for response_format=url
	seen      map[string]bool   // for faults that strike once
	lists     int               // model lists served, for QuirkLateEndpointTypes
	// books are what the account has spent and each key was billed.
	books *books
	// asked is the last image request taken (LastAsked).
	asked  Asked
	signer signer
	// turns are the Responses API's answers kept for later turns.
	turns turns
	// Batch is the Files and Batch APIs' files and batches, which tests
	// count.
	Batch *BatchWork
}

// New makes a server from cfg.
func New(cfg Config) *Server {
	if cfg.Models == nil {
		cfg.Models = DefaultModels
	}
	if cfg.SlowFirstByte == 0 {
		cfg.SlowFirstByte = 5 * time.Second
	}
	if cfg.ProxyLimit == 0 {
		cfg.ProxyLimit = DefaultProxyLimit
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), balance: cfg.Balance, models: map[string]bool{}, files: map[string][]byte{}, seen: map[string]bool{}}
	s.books = newBooks(&s.cfg)
	for _, m := range cfg.Models {
		s.models[m.ID] = true
	}
	for _, m := range ServedUnlisted {
		s.models[m] = true
	}
	s.mux.HandleFunc("GET /v1/models", s.handleModels)
	s.mux.HandleFunc("POST /v1/images/generations", s.handleGenerate)
	s.mux.HandleFunc("POST /v1/images/edits", s.handleEdit)
	s.mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	s.mux.HandleFunc("POST /v1/responses", s.handleResponses)
	s.mux.HandleFunc("GET /v1/fake-files/{id}", s.handleFile)
	s.mux.HandleFunc("GET /v1/dashboard/billing/subscription", s.books.handleSubscription)
	s.mux.HandleFunc("GET /v1/dashboard/billing/usage", s.books.handleUsage)
	s.mux.HandleFunc("GET /v1/sub2api/billing", s.books.handleSub2APIBilling)
	s.mux.HandleFunc("GET /v1/usage", s.books.handleSub2APIUsage)
	s.mux.HandleFunc("GET /api/status", s.books.handleStatus)
	s.mux.HandleFunc("GET /api/pricing", s.books.handlePricing)
	s.mux.HandleFunc("GET /api/usage/token/", s.books.handleTokenUsage)
	s.mux.HandleFunc("GET /api/usage/token", s.books.handleTokenUsage)
	s.Batch = newBatchWork(s.cfg, s.mux)
	s.mux.HandleFunc("/", invalidURL)
	return s
}

// ServeHTTP authenticates, numbers the request, and routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Request-Id", fmt.Sprintf("req_fake_%06d", s.reqs.Add(1)))
	if g, ok := s.cfg.Groups[keyOf(r)]; ok {
		if strings.HasPrefix(r.URL.Path, "/v1/") && !strings.HasPrefix(r.URL.Path, "/v1/dashboard/") && s.books.exhausted(keyOf(r), g) {
			// new-api refuses a key whose quota is spent as if it were
			// no key at all, seconds after it worked.
			writeError(w, http.StatusUnauthorized, "Invalid token (request id: 20261127014501123456789abcdef)", "new_api_error", "", "")
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), groupKey{}, g))
	} else if len(s.cfg.Groups) > 0 && !strings.HasPrefix(r.URL.Path, "/v1/fake-files/") {
		writeError(w, http.StatusUnauthorized, "无效的令牌 (request id: 20261124193501123456789abcdef)", "new_api_error", "", "")
		return
	}
	if s.cfg.Key != "" && len(s.cfg.Groups) == 0 && !strings.HasPrefix(r.URL.Path, "/v1/fake-files/") && r.Header.Get("Authorization") != "Bearer "+s.cfg.Key {
		writeError(w, http.StatusUnauthorized, "Incorrect API key provided. You can find your API key in your account settings.", "invalid_request_error", "", "invalid_api_key")
		return
	}
	if strings.HasPrefix(r.URL.Path, "/v1/images/") || r.URL.Path == "/v1/responses" {
		s.images.Add(1)
		now := s.flying.Add(1)
		defer s.flying.Add(-1)
		for p := s.peak.Load(); now > p && !s.peak.CompareAndSwap(p, now); p = s.peak.Load() {
		}
	}
	s.mux.ServeHTTP(w, r)
}

// Delivered is how many images the server handed over whole.
func (s *Server) Delivered() int { return int(s.delivered.Load()) }

// ImageRequests is how many image requests the server has answered, and
// the most it answered at once: what a batch's concurrency limit is
// checked against.
func (s *Server) ImageRequests() (total, peak int) {
	return int(s.images.Load()), int(s.peak.Load())
}

// Listen serves on addr (such as 127.0.0.1:0) until ctx ends, and returns
// the base URL ending in /v1.
func (s *Server) Listen(ctx context.Context, addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/v1", nil
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	if f := faultOf(r, ""); f != "" && s.commonFault(w, r, f, "") {
		return
	}
	type model struct {
		ID            string   `json:"id"`
		Object        string   `json:"object"`
		Created       int64    `json:"created"`
		OwnedBy       string   `json:"owned_by"`
		EndpointTypes []string `json:"supported_endpoint_types,omitempty"`
	}
	out := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list"}
	s.mu.Lock()
	s.lists++
	first := s.lists == 1
	s.mu.Unlock()
	g, grouped := r.Context().Value(groupKey{}).(Group)
	for _, m := range s.cfg.Models {
		if grouped && !slices.Contains(g.Models, m.ID) {
			continue
		}
		types := m.EndpointTypes
		if s.has(QuirkLateEndpointTypes) {
			switch {
			case first:
				types = nil
			case slices.Contains(types, "image-generation"):
				types = []string{"image-generation", "openai"}
			}
		}
		out.Data = append(out.Data, model{m.ID, "model", 1735689600, "easel-demo", types})
	}
	writeJSON(w, out)
}

// pay takes n images from the balance; false when it cannot.
func (s *Server) pay(n int) bool {
	if s.cfg.Balance == 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.balance < n {
		return false
	}
	s.balance -= n
	return true
}

// groupKey carries a request's account group in its context.
type groupKey struct{}

// checkModel answers like a new-api gateway for a model it does not list
// (for the key's group, when the server has groups).
func (s *Server) checkModel(w http.ResponseWriter, r *http.Request, model string) bool {
	if model == "" {
		writeError(w, http.StatusBadRequest, "you must provide a model parameter", "invalid_request_error", "model", "")
		return false
	}
	group := "default"
	g, grouped := r.Context().Value(groupKey{}).(Group)
	if grouped {
		group = g.Name
	}
	if strings.HasPrefix(model, faultModelPrefix) || s.models[model] && (!grouped || slices.Contains(g.Models, model)) {
		return true
	}
	writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("No available channel for model %s under group %s (distributor)", model, group), "new_api_error", "", "model_not_found")
	return false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// writeError sends the spec's error shape.
func writeError(w http.ResponseWriter, status int, msg, typ, param, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if param != "" {
		e["param"] = param
	}
	if code != "" {
		e["code"] = code
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}

// sleep waits d or until the client goes away; false if it went away.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// stash keeps an image for download by URL and returns its id.
func (s *Server) stash(data []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := fmt.Sprintf("img%d", len(s.files)+1)
	s.files[id] = data
	return id
}

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	data, ok := s.files[r.PathValue("id")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", http.DetectContentType(data))
	_, _ = w.Write(data)
}
