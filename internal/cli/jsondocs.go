package cli

import (
	"encoding/json"
	"flag"
	"io"
	"time"

	"easel/internal/catalogue"
	"easel/internal/pricing"
)

// The documents `easel spend|balance|jobs|info|models --json` print, one
// each, on stdout, with the same version and command head as the image
// commands' (README, "--json"): for scripts, which should not scrape
// sentences (in either language). Amounts carry their currency and where
// they came from; the sentences a person reads come along as "text".

type jsonHead struct {
	Version int    `json:"easel_json"`
	Command string `json:"command"`
}

func head(command string) jsonHead { return jsonHead{Version: JSONVersion, Command: command} }

// jsonFlag is the --json flag of a command that prints one document.
func jsonFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("json", false, catalogue.T("print one JSON document on stdout instead of lines for a person (see README)"))
}

func printDoc(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func money(m pricing.Money) *jsonMoney { return &jsonMoney{Amount: m.Amount, Currency: m.Currency} }

type jsonMoney struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

type infoDoc struct {
	jsonHead
	Files []infoFile `json:"files"`
}

type infoFile struct {
	Path   string `json:"path"`
	Format string `json:"format,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Bytes  int    `json:"bytes,omitempty"`
	// Colours and Credentials are the lines `easel info` prints.
	Colours     string `json:"colours,omitempty"`
	Credentials string `json:"credentials,omitempty"`
	// Error is why the file could not be read as an image.
	Error string `json:"error,omitempty"`
}

type modelsDoc struct {
	jsonHead
	Models []jsonModel `json:"models"`
}

type jsonModel struct {
	ID string `json:"id"`
	// Endpoints are the gateway's supported_endpoint_types, when it
	// lists them.
	Endpoints []string `json:"endpoints,omitempty"`
	// Lookalike: the id imitates another's with look-alike characters.
	Lookalike bool `json:"lookalike,omitempty"`
}

type spendDoc struct {
	jsonHead
	By     string       `json:"by"`
	Totals []spendTotal `json:"totals"`
	// Total is the whole, one amount per currency.
	Total []jsonMoney `json:"total"`
}

type spendTotal struct {
	// Label is the period (2026-11-28) or the group (a model, a
	// profile's name, a kind).
	Label    string  `json:"label"`
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
	// Estimated is the part counted at estimates (no usage reported,
	// may have been billed).
	Estimated float64 `json:"estimated"`
	Requests  int     `json:"requests"`
	Images    int     `json:"images"`
}

type balanceDoc struct {
	jsonHead
	// State is "amount", "unlimited", "impossible", "doubtful" or "none".
	State string     `json:"state"`
	Left  *jsonMoney `json:"left,omitempty"`
	// Source is "key-usage" (the gateway's figure for this key) or
	// "billing" (the billing pair); Checked, when it was read.
	Source  string     `json:"source,omitempty"`
	Checked *time.Time `json:"checked,omitempty"`
	Today   jsonMoney  `json:"today"`
	// DailyCap is the profile's daily budget, when one is set.
	DailyCap *jsonMoney `json:"daily_cap,omitempty"`
	Rate     jsonRate   `json:"rate"`
	Text     string     `json:"text"`
}

type jsonRate struct {
	Group string  `json:"group"`
	Value float64 `json:"value"`
	// Source is "user", "gateway", "sub2api", "usage" (learnt from the
	// key's own figure), "list", "unknown-group" or "doubted".
	Source string `json:"source"`
	Text   string `json:"text"`
}

type jobsDoc struct {
	jsonHead
	Jobs []jsonCutOff `json:"jobs"`
	// Batches are the batches of the Batch API at work.
	Batches []jsonBatch `json:"batches"`
}

type jsonBatch struct {
	ID        string    `json:"id"`
	Profile   string    `json:"profile"`
	Label     string    `json:"label"`
	Status    string    `json:"status"`
	Total     int       `json:"total"`
	Completed int       `json:"completed"`
	Failed    int       `json:"failed"`
	Created   time.Time `json:"created"`
}

type jsonCutOff struct {
	Job     string    `json:"job"`
	Profile string    `json:"profile"`
	Started time.Time `json:"started"`
	Kind    string    `json:"kind"`
	Prompt  string    `json:"prompt"`
	Model   string    `json:"model"`
	Asked   int       `json:"asked"`
	Arrived int       `json:"arrived"`
	// MayHaveCost is the ledger's figure for it (counted at its estimate).
	MayHaveCost *jsonMoney `json:"may_have_cost,omitempty"`
	// Retry is the command that sends the images that had not arrived;
	// empty for an edit (the window offers Retry) or when all arrived.
	Retry string `json:"retry,omitempty"`
	// Batch and Left, for a request an ended batch did not make: the
	// batch and why, in the service's words or Easel's.
	Batch string `json:"batch,omitempty"`
	Left  string `json:"left,omitempty"`
}
