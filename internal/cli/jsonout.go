package cli

import (
	"cmp"
	"errors"
	"io"
	"sync"

	"easel/internal/api"
	"easel/internal/gateway"
	"easel/internal/jobs"
)

// JSONVersion is the version of the document --json prints; a change
// of a field's name or meaning is a new version (README, "--json").
const JSONVersion = 1

// jsonReport is what `easel gen|edit|outpaint|batch --json` prints on
// stdout, one document once the command ends, for scripts: the files
// written, each request with its cost and where that came from, the
// notes as codes with their text, and the error. The same lines still
// go to stderr for a person.
type jsonReport struct {
	mu       sync.Mutex
	Version  int         `json:"easel_json"`
	Command  string      `json:"command"`
	OK       bool        `json:"ok"`
	Files    []jsonFile  `json:"files"`
	Requests []jsonJob   `json:"requests"`
	Notes    []jsonNote  `json:"notes"`
	Error    *jsonError  `json:"error,omitempty"`
	Estimate *jsonAmount `json:"estimate,omitempty"`
}

type jsonFile struct {
	Path string `json:"path"`
	// Kind is "image" (as the service sent it, or restored for
	// outpaint), "kept" (the unmasked area put back), "unreadable"
	// (bytes that are no picture, kept) or "sheet" (a batch's contact
	// sheet).
	Kind string `json:"kind"`
	Job  string `json:"job"`
}

type jsonJob struct {
	Job   string `json:"job"`
	State string `json:"state"`
	// Cost is what the ledger wrote; Billed is "billed", "maybe" (a
	// cancel while the service worked) or "" (not billed).
	Cost   *jsonAmount `json:"cost,omitempty"`
	Billed string      `json:"billed"`
}

type jsonAmount struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
	// Estimated: the service reported no usage, so the amount is the
	// list price's estimate. Source is where the amount came from:
	// "gateway" (its own prices for the key), "answer" (the usage the
	// service reported, at the profile's prices) or "estimate".
	Estimated bool   `json:"estimated"`
	Source    string `json:"source"`
	Text      string `json:"text"`
}

type jsonNote struct {
	// Code is what kind of note: "service" (what the service is known
	// to do, before sending), "answer" (what the answer did not do of
	// what was asked), "dropped", "cancelled".
	Code string `json:"code"`
	Text string `json:"text"`
}

type jsonError struct {
	Kind      string `json:"kind"`
	Message   string `json:"message"`
	Hint      string `json:"hint,omitempty"`
	Status    int    `json:"status,omitempty"`
	RequestID string `json:"request_id,omitempty"`
}

func newJSONReport(command string) *jsonReport {
	return &jsonReport{Version: JSONVersion, Command: command, Files: []jsonFile{}, Requests: []jsonJob{}, Notes: []jsonNote{}}
}

func (r *jsonReport) file(path, kind, job string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Files = append(r.Files, jsonFile{path, kind, job})
}

func (r *jsonReport) note(code, text string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Notes = append(r.Notes, jsonNote{code, text})
}

// ended records a request's final event.
func (r *jsonReport) ended(e jobs.Event) {
	if r == nil {
		return
	}
	j := jsonJob{Job: e.Job.ID, State: e.State.String()}
	if c := e.Charged; c != nil && c.Priced {
		j.Cost = &jsonAmount{Amount: c.Amount.Amount, Currency: c.Amount.Currency, Estimated: c.Estimated, Source: cmp.Or(c.Source, "estimate"), Text: c.String()}
	}
	switch {
	case e.Charged != nil && e.Verdict == gateway.MayBeBilled:
		j.Billed = "maybe"
	case e.Charged != nil:
		j.Billed = "billed"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Requests = append(r.Requests, j)
}

// print writes the document, with err (the command's) as its error.
func (r *jsonReport) print(w io.Writer, err error) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.OK = err == nil
	if err != nil {
		r.Error = &jsonError{Kind: "error", Message: err.Error()}
		var ae *api.Error
		if errors.As(err, &ae) {
			r.Error = &jsonError{Kind: ae.Kind.String(), Message: ae.Message, Hint: ae.Hint, Status: ae.Status, RequestID: ae.RequestID}
			if r.Error.Message == "" {
				r.Error.Message = ae.Line()
			}
		}
	}
	_ = printDoc(w, r)
}
