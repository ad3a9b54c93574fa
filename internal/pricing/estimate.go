package pricing

import (
	"math"

	"easel/internal/api"
	"easel/internal/catalogue"
)

// Estimate is what a request will cost: Low to High in Currency (equal
// when the price is known exactly). Priced is false when no price is set
// for the model.
type Estimate struct {
	Low, High float64
	Currency  string
	// Images is how many pictures an image request asks for; 0 for chat.
	Images int
	Priced bool
	Model  string
	// SVGExtra says an SVG result costs an extra charge no source
	// states: the figure is a floor, and says so.
	SVGExtra bool
	// ByUsage, for an unpriced estimate of a model whose token rates
	// are known but not the output tokens a picture takes, is its price
	// per million output tokens and where that is from; Before, what a
	// picture of it cost in the requests billed before (spend.Seen).
	ByUsage *UsageRate
	Before  *Seen
}

// UsageRate is a model's price per million output tokens, with its
// source and date.
type UsageRate struct {
	PerMillion   float64
	Source, Date string
}

// Seen is what a picture cost in earlier billed requests: the lowest,
// the highest, over N requests.
type Seen struct {
	Low, High float64
	N         int
}

// Range reports whether the estimate is a range, not one figure (auto
// size or quality, or a reply whose length is not known yet).
func (e Estimate) Range() bool { return e.High-e.Low > 0.0005*max(1, math.Abs(e.High)/100) }

// Amount is the estimate's upper bound as Money: what a budget must
// allow for.
func (e Estimate) Amount() Money { return Money{Amount: e.High, Currency: e.Currency} }

// String is the estimate as the line under the send button says it:
// "≈ $0.17 for 4 images", "$0.04–$0.67 for 4 images (the service picks
// size or quality)", "≈ $0.002 before the reply", or "no price set for
// gpt-image-2".
func (e Estimate) String() string {
	if !e.Priced {
		return e.unpriced()
	}
	lo, hi := Money{e.Low, e.Currency}, Money{e.High, e.Currency}
	if e.Images == 0 {
		if e.Range() {
			return catalogue.F("%s–%s for this message (the reply's length decides)", lo, hi)
		}
		return catalogue.F("≈ %s for this message", hi)
	}
	s := catalogue.N("≈ %[1]s for %[2]d images", e.Images, hi, e.Images)
	if e.Range() {
		s = catalogue.N("%[1]s–%[2]s for %[3]d images (the service picks size or quality)", e.Images, lo, hi, e.Images)
	}
	if e.SVGExtra {
		s += catalogue.T(", plus an SVG charge no source states")
	}
	return s
}

// unpriced says what is known of a request without a price: its
// model's token rate and what its pictures cost before, where known
// (#57: "no price set" for a model whose rates the sheet gives).
func (e Estimate) unpriced() string {
	if e.ByUsage == nil {
		return catalogue.F("no price set for %s", e.Model)
	}
	s := catalogue.F("billed by usage at %s per million output tokens (%s, %s)", Money{e.ByUsage.PerMillion, e.Currency}, e.ByUsage.Source, e.ByUsage.Date)
	if b := e.Before; b != nil && b.N > 0 {
		s += "; " + catalogue.N("%[2]s–%[3]s a picture in the %[1]d requests billed before", b.N, b.N, Money{b.Low, e.Currency}, Money{b.High, e.Currency})
	}
	return s
}

// Plus is the estimate of e and f sent together (a batch), in e's
// currency; unpriced when either is.
func (e Estimate) Plus(f Estimate) Estimate {
	e.Low, e.High, e.Images = e.Low+f.Low, e.High+f.High, e.Images+f.Images
	if e.Priced && !f.Priced {
		e.Model, e.ByUsage, e.Before = f.Model, f.ByUsage, f.Before // the sum says which model has no price
	}
	e.Priced = e.Priced && f.Priced
	e.SVGExtra = e.SVGExtra || f.SVGExtra
	return e
}

// Scaled is e at share of its price: a lane that costs less (the Batch
// API's half).
func (e Estimate) Scaled(share float64) Estimate {
	e.Low, e.High = e.Low*share, e.High*share
	if e.ByUsage != nil {
		u := *e.ByUsage
		u.PerMillion *= share
		e.ByUsage = &u
	}
	if e.Before != nil {
		b := *e.Before
		b.Low, b.High = b.Low*share, b.High*share
		e.Before = &b
	}
	return e
}

// Times is the estimate of k requests like e.
func (e Estimate) Times(k int) Estimate {
	e.Low, e.High, e.Images = e.Low*float64(k), e.High*float64(k), e.Images*k
	return e
}

// InputImageTokens is what the estimate assumes one reference image
// costs: a 1024-pixel image is about 135 tokens at low fidelity and
// 3,050 at high.
func InputImageTokens(highFidelity bool) float64 {
	if highFidelity {
		return 3050
	}
	return 135
}

// Images estimates an image request: n pictures of options o, with
// inputs reference images for an edit (their tokens are billed too) and
// a prompt of promptChars characters (about four to a token).
func (t Table) Images(o api.ImageOptions, promptChars, inputs int, highFidelity bool) Estimate {
	n := max(o.N, 1)
	e := Estimate{Images: n, Model: o.Model, Currency: t.currency()}
	p, _, ok := t.Lookup(o.Model)
	if !ok || !p.pricesPictures() {
		return e // unknown, or a chat model asked for images
	}
	sizes := []string{o.Size}
	if w, h, ok := api.ParseSize(o.Size); !ok || w == 0 || h == 0 {
		sizes = []string{"1024x1024", "1024x1536", "1536x1024"} // auto: any of them
		if isDallE(p) {
			sizes = []string{"1024x1024"} // dall-e's auto is its square
		}
	}
	qualities := []string{o.Quality}
	if o.Quality == "" || o.Quality == "auto" {
		qualities = []string{"low", "medium", "high"}
		if isDallE(p) {
			qualities = []string{"standard"}
		}
	}
	low, high, ok := p.span(qualities, sizes)
	if !ok {
		e.ByUsage = p.usageRate()
		return e // a size or quality the table cannot price
	}
	if o.OutputFormat == "gif" {
		// Every frame is drawn, and billed.
		low, high = low*float64(max(o.Frames, 1)), high*float64(max(o.Frames, 1))
	}
	in := (float64(promptChars)/4*p.TextIn + float64(inputs)*InputImageTokens(highFidelity)*p.ImageIn) / 1e6
	e.Low, e.High, e.Priced = low*float64(n)+in, high*float64(n)+in, true
	e.SVGExtra = o.OutputFormat == "svg" && p.SVGUnknown
	return e
}

// span is the cheapest and dearest picture of the qualities and sizes
// given; ok is false when p cannot price one of them.
func (p Price) span(qualities, sizes []string) (low, high float64, ok bool) {
	low = math.Inf(1)
	for _, q := range qualities {
		for _, s := range sizes {
			c, ok := p.picture(q, s)
			if !ok {
				return 0, 0, false
			}
			low, high = math.Min(low, c), math.Max(high, c)
		}
	}
	return low, high, true
}

// usageRate is p's price per million output tokens, where p has one:
// what is known of a picture whose tokens are not.
func (p Price) usageRate() *UsageRate {
	if p.ImageOut <= 0 {
		return nil
	}
	return &UsageRate{PerMillion: p.ImageOut, Source: p.Source, Date: p.Date}
}

// pricesPictures reports whether p can price a picture at all (a chat
// model's price cannot).
func (p Price) pricesPictures() bool { return p.PerImage != nil || p.ImageOut != 0 || p.PerCall != 0 }

// isDallE reports a price billed only per picture, with dall-e's
// qualities (standard, hd).
func isDallE(p Price) bool {
	for _, byQ := range p.PerImage {
		_, ok := byQ["standard"]
		return ok && p.ImageOut == 0
	}
	return false
}

// picture is the price of one picture of quality and size: the flat
// price where the table has one, else its output tokens.
func (p Price) picture(quality, size string) (float64, bool) {
	if p.PerCall > 0 {
		return p.PerCall, true
	}
	if each, ok := p.PerImage[size][quality]; ok {
		return each, true
	}
	if p.ImageOut == 0 {
		return 0, false
	}
	if p.Sheet {
		base := p.Tokens[quality]
		w, h, ok := api.ParseSize(size)
		if base == 0 || !ok {
			return 0, false
		}
		t := math.Ceil(float64(base) * float64(w*h) / (1024 * 1024))
		return t * p.ImageOut / 1e6, true
	}
	t := OutputTokens(quality, size)
	return float64(t) * p.ImageOut / 1e6, t > 0
}

// ReplyTokens is the reply length a chat estimate allows for at most
// when the request sets none: a long answer, about 1,500 words.
const ReplyTokens = 2000

// Chat estimates a chat request whose messages come to promptChars
// characters: the input is known, the reply is from nothing up to
// maxReply tokens (ReplyTokens when 0).
func (t Table) Chat(model string, promptChars, maxReply int) Estimate {
	e := Estimate{Model: model, Currency: t.currency()}
	p, _, ok := t.Lookup(model)
	if !ok || (p.TextIn == 0 && p.TextOut == 0) {
		return e
	}
	if maxReply <= 0 {
		maxReply = ReplyTokens
	}
	in := float64(promptChars) / 4 * p.TextIn / 1e6
	e.Low, e.High, e.Priced = in, in+float64(maxReply)*p.TextOut/1e6, true
	return e
}
