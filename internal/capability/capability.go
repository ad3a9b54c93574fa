// Package capability says what each image model takes — qualities,
// sizes, formats, transparency, complexity, markup, references, prices —
// as data, not as lists in code. OpenAI ships a model generation every
// few months and each one adds values (quality xhigh and max, complexity,
// GIF and SVG results); a client whose lists are code refuses them until
// its next release. Here the lists are a sheet per model family: shipped
// embedded (sheets.json, each family with its source and date), replaced
// family by family by a file the user drops in beside profiles.json
// (models.json), and refined by what each service answers (the library
// remembers a value a model refused, per profile, key and model).
//
// A sheet is knowledge, not a gate: a value a sheet does not list is
// sent, and the service decides; only a value the sheet knows the model
// refuses (transparency after gpt-image-2 lost it) is stopped before
// sending. Families are matched by pattern, so a new snapshot
// (gpt-image-2.6-flare-2026-11-04) takes its family's sheet the day it
// appears.
package capability

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

//go:embed sheets.json
var shipped []byte

// Sheet is what one model family takes.
type Sheet struct {
	// Family names the sheet; Match are the model ids it covers, with *
	// for any run of characters (gpt-image-2.6*). The most specific
	// pattern that matches wins (the longest, wildcards not counted).
	Family string   `json:"family"`
	Match  []string `json:"match"`
	// Source and Date say where the facts come from and when they were
	// read: every family carries both.
	Source string `json:"source"`
	Date   string `json:"date"`
	// Note is said beside the facts (a retirement, a preview).
	Note string `json:"note,omitempty"`
	// Retired is the day the provider stopped serving the family; a
	// gateway may still map the name, so it is said, not refused.
	Retired string `json:"retired,omitempty"`
	// Shipped is the day the provider first served the family, when the
	// sheet knows it: a gateway's model list lags a new family by days.
	Shipped string `json:"shipped,omitempty"`
	// Endpoints are "generations" and "edits": the ones the family
	// serves. Empty means not known (both are tried).
	Endpoints []string `json:"endpoints,omitempty"`
	// Options are the request's enumerated fields by their wire name
	// (quality, background, output_format, moderation, complexity,
	// input_fidelity, response_format).
	Options map[string]Field `json:"options,omitempty"`
	// Sizes are the sizes the family takes.
	Sizes Sizes `json:"sizes"`
	// MaxImages is how many references an edit takes; MaxN how many
	// images one request makes; MaxPartials how many previews a stream
	// sends. 0 means not known.
	MaxImages   int  `json:"max_images,omitempty"`
	MaxN        int  `json:"max_n,omitempty"`
	MaxPartials int  `json:"max_partials,omitempty"`
	Stream      bool `json:"stream,omitempty"`
	// Markup is set when the family takes markup edits (marks drawn
	// over the first reference, sent as markup and markup_alpha).
	Markup bool `json:"markup,omitempty"`
	// GIF is how animated results are asked for, when the family makes
	// them.
	GIF *GIF `json:"gif,omitempty"`
	// Price is the family's list price, when one is known.
	Price *Price `json:"price,omitempty"`
	// Signed, when set, says the provider signs what the family makes
	// with C2PA Content Credentials, and where that is said: an answer
	// without them came by a route that re-encoded or stripped them.
	Signed *Fact `json:"signed,omitempty"`
	// Batch, when set, says the provider's Batch API takes the family's
	// image requests, and what share of the live price a request made
	// within its 24 hours costs.
	Batch *Lane `json:"batch,omitempty"`
}

// Lane is a cheaper way to send a request: the share of the live price
// it costs, with where and when that was read.
type Lane struct {
	Share  float64 `json:"share"`
	Source string  `json:"source"`
	Date   string  `json:"date"`
}

// Fact is a thing said of a family, with where and when it was read.
type Fact struct {
	Source string `json:"source"`
	Date   string `json:"date"`
}

// Field is what one option takes.
type Field struct {
	// Takes are the values the family takes, in the order the form
	// offers them; Default is the one the service applies when none is
	// sent.
	Takes   []string `json:"takes"`
	Default string   `json:"default,omitempty"`
	// Dated are values the family took for a time only.
	Dated []Window `json:"dated,omitempty"`
}

// Window is a value taken from From until Until (either may be empty:
// open). Outside it the service refuses the value.
type Window struct {
	Value string `json:"value"`
	From  string `json:"from,omitempty"`
	Until string `json:"until,omitempty"`
	Note  string `json:"note,omitempty"`
}

// Sizes are the listed sizes a family takes, and the rules for sizes of
// its own when it takes them.
type Sizes struct {
	Listed []string `json:"listed,omitempty"`
	Custom *Custom  `json:"custom,omitempty"`
}

// Custom are the rules a custom WxH follows.
type Custom struct {
	Multiple  int     `json:"multiple"`
	MaxAspect float64 `json:"max_aspect"`
	MaxSide   int     `json:"max_side"`
	MinPixels int     `json:"min_pixels"`
	MaxPixels int     `json:"max_pixels"`
}

// GIF is how a family makes animations: frames laid on one sheet (in a
// row) whose long side stays within MaxSheetSide, asked with the
// parameters named here (names differ by route, so they are data too).
type GIF struct {
	MaxSheetSide  int    `json:"max_sheet_side"`
	MaxFrames     int    `json:"max_frames"`
	FramesParam   string `json:"frames_param"`
	DurationParam string `json:"duration_param"`
}

// Price is a family's list price in US dollars: per million tokens, and
// the image tokens one picture bills by quality at 1024×1024 (other sizes
// by their area). SVG is what is known of the extra SVG charge: "" when
// there is none, "unknown" when one is charged at a rate no source gives.
type Price struct {
	TextIn       float64          `json:"text_in"`
	ImageIn      float64          `json:"image_in"`
	ImageOut     float64          `json:"image_out"`
	OutputTokens map[string]int64 `json:"output_tokens,omitempty"`
	SVG          string           `json:"svg,omitempty"`
	Source       string           `json:"source"`
	Date         string           `json:"date"`
}

// Verdict is what a sheet knows of one value.
type Verdict int

const (
	// Unknown: the sheet does not say; the value is sent.
	Unknown Verdict = iota
	// Takes: the family takes it.
	Takes
	// Refuses: the family is known to refuse it (a dated value outside
	// its window); it is not sent.
	Refuses
)

// Judge is what s knows of value for field on day at.
func (s Sheet) Judge(field, value string, at time.Time) (Verdict, Window) {
	f, ok := s.Options[field]
	if !ok || value == "" {
		return Unknown, Window{}
	}
	for _, w := range f.Dated {
		if w.Value == value {
			if w.open(at) {
				return Takes, w
			}
			return Refuses, w
		}
	}
	if slices.Contains(f.Takes, value) {
		return Takes, Window{}
	}
	return Unknown, Window{}
}

func (w Window) open(at time.Time) bool {
	day := at.UTC().Format(time.DateOnly)
	return (w.From == "" || day >= w.From) && (w.Until == "" || day < w.Until)
}

// Offers is what the form offers for field on day at: the values the
// family takes, dated ones while their window is open. ok is false when
// the sheet says nothing of the field.
func (s Sheet) Offers(field string, at time.Time) (values []string, ok bool) {
	f, ok := s.Options[field]
	if !ok {
		return nil, false
	}
	values = slices.Clone(f.Takes)
	for _, w := range f.Dated {
		if w.open(at) && !slices.Contains(values, w.Value) {
			values = append(values, w.Value)
		}
	}
	return values, true
}

// NewWindow is how long after a family ships gateways' model lists may
// still lack its ids.
const NewWindow = 120 * 24 * time.Hour

// IsNew reports whether the family shipped within NewWindow of at: a
// model list without one of its ids is likely late, not refusing it.
func (s Sheet) IsNew(at time.Time) bool {
	d, err := time.Parse(time.DateOnly, s.Shipped)
	return err == nil && !at.Before(d) && at.Sub(d) <= NewWindow
}

// Serves reports whether the family serves endpoint ("generations",
// "edits"); a sheet that lists none is given the benefit of the doubt.
func (s Sheet) Serves(endpoint string) bool {
	return len(s.Endpoints) == 0 || slices.Contains(s.Endpoints, endpoint)
}

// ladders order the values of fields whose values are degrees, so the
// nearest value a model takes can be offered for one it refused.
var ladders = map[string][]string{
	"quality":    {"low", "standard", "medium", "high", "hd", "xhigh", "max"},
	"complexity": {"low", "medium", "high"},
}

// Nearest is the value of field the family takes on day at that is
// closest to value: the nearest step on the field's ladder, else its
// default, else the first it takes; "" when the sheet offers none.
func (s Sheet) Nearest(field, value string, at time.Time) string {
	offers, _ := s.Offers(field, at)
	offers = slices.DeleteFunc(offers, func(v string) bool { return v == value })
	if len(offers) == 0 {
		return ""
	}
	if ladder, ok := ladders[field]; ok {
		if i := slices.Index(ladder, value); i >= 0 {
			best, dist, bestJ := "", len(ladder)+1, -1
			for _, v := range offers {
				j := slices.Index(ladder, v)
				if j < 0 {
					continue
				}
				// The nearest step; between two as near, the higher.
				if d := abs(j - i); d < dist || d == dist && j > bestJ {
					best, dist, bestJ = v, d, j
				}
			}
			if best != "" {
				return best
			}
		}
	}
	if d := s.Options[field].Default; d != "" && slices.Contains(offers, d) {
		return d
	}
	return offers[0]
}

func abs(n int) int { return max(n, -n) }

// Book is every sheet Easel knows: the user's first, then the shipped.
type Book struct {
	sheets []Sheet
	// From says where the user's sheets came from ("" for none).
	From string
}

// Shipped is the book of the sheets Easel ships.
func Shipped() Book {
	b, err := parse(shipped)
	if err != nil {
		panic("capability: the shipped sheets do not read: " + err.Error())
	}
	return b
}

// file is the layout of sheets.json and of a user's models.json.
type file struct {
	Families []Sheet `json:"families"`
}

func parse(data []byte) (Book, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return Book{}, err
	}
	for i, s := range f.Families {
		if err := s.valid(); err != nil {
			return Book{}, fmt.Errorf("family %d (%s): %w", i+1, s.Family, err)
		}
	}
	return Book{sheets: f.Families}, nil
}

// valid refuses a sheet that cannot be used as it stands: one without a
// name, a pattern, a source or a date (facts of unknown origin are not
// shown as facts), or with a pattern path.Match cannot read.
func (s Sheet) valid() error {
	switch {
	case s.Family == "":
		return errors.New("it has no family name")
	case len(s.Match) == 0:
		return errors.New("it matches no model (match is empty)")
	}
	if err := s.sourced(); err != nil {
		return err
	}
	for _, p := range s.Match {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("the pattern %q does not read: %w", p, err)
		}
	}
	return s.bounded()
}

// sourced refuses a fact that does not say where it comes from and when
// (facts of unknown origin are not shown as facts).
func (s Sheet) sourced() error {
	switch {
	case s.Source == "" || s.Date == "":
		return errors.New("it does not say where its facts come from and when (source, date)")
	case s.Price != nil && (s.Price.Source == "" || s.Price.Date == ""):
		return errors.New("its price does not say where it comes from and when (source, date)")
	case s.Signed != nil && (s.Signed.Source == "" || s.Signed.Date == ""):
		return errors.New("that it is signed does not say where it comes from and when (source, date)")
	case s.Batch != nil && (s.Batch.Source == "" || s.Batch.Date == ""):
		return errors.New("its batch price does not say where it comes from and when (source, date)")
	case s.Batch != nil && !(s.Batch.Share > 0 && s.Batch.Share <= 1):
		return fmt.Errorf("its batch share %v is not a share of the live price (above 0, at most 1)", s.Batch.Share)
	}
	return nil
}

// bounded refuses numbers no model has (#53: a price of 1e308 wrote +Inf
// into the ledger, a negative one negative costs, max_frames 1e9 sent a
// billion frames).
func (s Sheet) bounded() error {
	if err := s.Price.bounded(); err != nil {
		return err
	}
	if g := s.GIF; g != nil && (g.MaxFrames < 0 || g.MaxFrames > maxFrames || g.MaxSheetSide < 0 || g.MaxSheetSide > maxSide) {
		return fmt.Errorf("its GIF of %d frames on a %d-pixel sheet is outside 0–%d frames, 0–%d pixels", g.MaxFrames, g.MaxSheetSide, maxFrames, maxSide)
	}
	return s.Sizes.Custom.bounded()
}

func (p *Price) bounded() error {
	if p == nil {
		return nil
	}
	for _, v := range []float64{p.TextIn, p.ImageIn, p.ImageOut} {
		if !InBounds(v, MaxPerMillion) {
			return fmt.Errorf("its price of %g per million tokens is outside 0–%d", v, MaxPerMillion)
		}
	}
	for q, n := range p.OutputTokens {
		if n < 0 || n > maxTokensPerPicture {
			return fmt.Errorf("its %s pictures of %d tokens are outside 0–%d", q, n, maxTokensPerPicture)
		}
	}
	return nil
}

func (c *Custom) bounded() error {
	if c != nil && (c.MaxSide < 0 || c.MaxSide > maxSide || c.MaxPixels < 0 || c.MaxPixels > maxSide*maxSide ||
		c.Multiple < 0 || c.MinPixels < 0 || !InBounds(c.MaxAspect, 100)) {
		return fmt.Errorf("its custom sizes (side %d, %d pixels, aspect %g) are outside what any model makes", c.MaxSide, c.MaxPixels, c.MaxAspect)
	}
	return nil
}

// InBounds reports whether v is a number from 0 to most: what a file
// gives is bounded before it reaches a ledger, a budget or a layout.
func InBounds(v, most float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 && v <= most
}

// MaxPerMillion is the most a million tokens may cost, in dollars:
// today's dearest image output is $40.
const MaxPerMillion = 10_000

// Bounds of a sheet's numbers: far beyond any model's, short of absurd.
const (
	maxTokensPerPicture = 1_000_000
	maxFrames           = 1_000
	maxSide             = 32_768
)

// Load is the shipped book with the sheets of the user's file at
// userFile put first, family by family: a family the user describes
// replaces the shipped one of the same name; new families are added. A
// missing file is no error.
func Load(userFile string) (Book, error) {
	b := Shipped()
	if userFile == "" {
		return b, nil
	}
	data, err := os.ReadFile(userFile)
	if errors.Is(err, os.ErrNotExist) {
		return b, nil
	}
	if err != nil {
		return b, err
	}
	if len(data) > 1<<20 {
		return b, fmt.Errorf("%s is over 1 MB", userFile)
	}
	own, err := parse(data)
	if err != nil {
		return b, fmt.Errorf("%s: %w", userFile, err)
	}
	for _, s := range own.sheets {
		b.sheets = slices.DeleteFunc(b.sheets, func(t Sheet) bool { return t.Family == s.Family })
	}
	b.sheets = append(own.sheets, b.sheets...)
	b.From = userFile
	return b, nil
}

// For is the sheet of model: its id without a gateway's prefix
// ("openai/gpt-image-2"), matched against every family's patterns; the
// most specific pattern wins, and among equals the user's.
func (b Book) For(model string) (Sheet, bool) {
	id := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	best, bestLen := Sheet{}, -1
	for _, s := range b.sheets {
		for _, p := range s.Match {
			if ok, _ := path.Match(strings.ToLower(p), id); ok {
				if n := len(strings.ReplaceAll(p, "*", "")); n > bestLen {
					best, bestLen = s, n
				}
			}
		}
	}
	return best, bestLen >= 0
}

// The book in use: the shipped one until the program loads the user's
// file at start (Use). One per process: a model's facts are the same
// for the window and the command line.
var (
	mu      sync.RWMutex
	current = Shipped()
)

// Use makes b the book every lookup reads.
func Use(b Book) {
	mu.Lock()
	current = b
	mu.Unlock()
}

// Current is the book in use.
func Current() Book {
	mu.RLock()
	defer mu.RUnlock()
	return current
}

// Lookup is model's sheet in the book in use.
func Lookup(model string) (Sheet, bool) { return Current().For(model) }
