// Package pricing says what a request will cost before it is sent, and
// what an answer cost from the usage it reports. The service bills GPT
// image models by tokens (text and image input, image output) and the
// older models per image; a designer finds out only afterwards, on the
// gateway's console. The defaults here are the public list prices, each
// with its source and date; a model without a price says so rather than
// costing nothing.
//
// This is the first part of the spend work (#27): the table and the
// estimates. Per-profile prices, a reseller's group rate, the ledger and
// the budget build on it.
package pricing

import (
	"fmt"
	"math"
	"strings"

	"easel/internal/api"
)

// Price is one model's list price in US dollars.
type Price struct {
	// Per million tokens: text and image input, image and text output.
	TextIn, ImageIn, ImageOut, TextOut float64
	// PerImage, for models billed per picture (dall-e), by size then
	// quality ("" for the model's only quality).
	PerImage map[string]map[string]float64
	// Source and Date say where the figures come from, and when they
	// were read: prices change.
	Source, Date string
}

// outputTokens is how many image tokens a GPT image model bills for one
// picture, by quality and size: the same for gpt-image-1, -1.5 and
// -1-mini (OpenAI's image generation guide, "Cost and latency", 2025).
var outputTokens = map[string]map[string]int64{
	"low":    {"1024x1024": 272, "1024x1536": 408, "1536x1024": 400},
	"medium": {"1024x1024": 1056, "1024x1536": 1584, "1536x1024": 1568},
	"high":   {"1024x1024": 4160, "1024x1536": 6240, "1536x1024": 6208},
}

const openAIPricing = "OpenAI API pricing, platform.openai.com/docs/pricing"

// Defaults are the list prices Easel knows, by model id.
var Defaults = map[string]Price{
	"gpt-image-1":      {TextIn: 5, ImageIn: 10, ImageOut: 40, Source: openAIPricing, Date: "2025-05"},
	"gpt-image-1.5":    {TextIn: 5, ImageIn: 8, ImageOut: 32, Source: openAIPricing, Date: "2025-12"},
	"gpt-image-1-mini": {TextIn: 2, ImageIn: 2.5, ImageOut: 8, Source: openAIPricing, Date: "2025-10"},
	"dall-e-3": {PerImage: map[string]map[string]float64{
		"1024x1024": {"standard": 0.04, "hd": 0.08},
		"1024x1792": {"standard": 0.08, "hd": 0.12},
		"1792x1024": {"standard": 0.08, "hd": 0.12},
	}, Source: openAIPricing, Date: "2024-11"},
	"gpt-4o-mini":  {TextIn: 0.15, TextOut: 0.60, Source: openAIPricing, Date: "2025-05"},
	"gpt-4o":       {TextIn: 2.50, TextOut: 10, Source: openAIPricing, Date: "2025-05"},
	"gpt-4.1":      {TextIn: 2, TextOut: 8, Source: openAIPricing, Date: "2025-05"},
	"gpt-4.1-mini": {TextIn: 0.40, TextOut: 1.60, Source: openAIPricing, Date: "2025-05"},
	"gpt-5-mini":   {TextIn: 0.25, TextOut: 2, Source: openAIPricing, Date: "2025-08"},
}

// Lookup is the price of model: its own id, else the id without a
// gateway's prefix ("openai/gpt-image-1") or a dated snapshot suffix
// ("gpt-image-1-2025-04-15").
func Lookup(model string) (Price, bool) {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	if p, ok := Defaults[m]; ok {
		return p, true
	}
	for id, p := range Defaults {
		if rest, ok := strings.CutPrefix(m, id+"-"); ok && isSnapshot(rest) {
			return p, true
		}
	}
	return Price{}, false
}

// isSnapshot reports a date suffix such as 2025-04-15.
func isSnapshot(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && strings.Trim(s, "0123456789-") == ""
}

// Estimate is what a request will cost: Low to High dollars (equal when
// the price is known exactly), for Images pictures. Priced is false when
// no price is set for the model.
type Estimate struct {
	Low, High float64
	Images    int
	Priced    bool
	Model     string
}

// Range reports whether the estimate is a range, not one figure (auto
// size or quality: the service picks).
func (e Estimate) Range() bool { return e.High-e.Low > 0.0005 }

// String is the estimate as the Generate button's line says it:
// "≈ $0.17 for 4 images", "$0.04–$0.67 for 4 images (the service picks
// the quality)", or "no price set for gpt-image-2".
func (e Estimate) String() string {
	if !e.Priced {
		return fmt.Sprintf("no price set for %s", e.Model)
	}
	what := "1 image"
	if e.Images != 1 {
		what = fmt.Sprintf("%d images", e.Images)
	}
	if e.Range() {
		return fmt.Sprintf("%s–%s for %s (the service picks size or quality)", Dollars(e.Low), Dollars(e.High), what)
	}
	return fmt.Sprintf("≈ %s for %s", Dollars(e.High), what)
}

// Dollars writes an amount as a designer reads it: cents to two places,
// less than a cent to three.
func Dollars(v float64) string {
	if v > 0 && v < 0.01 {
		return fmt.Sprintf("$%.3f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

// Images estimates an image request: n pictures of options o, with
// inputs reference images for an edit (their tokens are billed too,
// roughly: a 1024-pixel image costs about 135 tokens at low fidelity and
// 3,050 at high) and a prompt of promptChars characters.
func Images(o api.ImageOptions, promptChars, inputs int, highFidelity bool) Estimate {
	n := max(o.N, 1)
	e := Estimate{Images: n, Model: o.Model}
	p, ok := Lookup(o.Model)
	if !ok {
		return e
	}
	if p.PerImage != nil {
		return perImage(e, p, o)
	}
	if p.ImageOut == 0 {
		return e // a chat model asked for images: no image price
	}
	sizes := []string{o.Size}
	if w, h, ok := api.ParseSize(o.Size); !ok || w == 0 || h == 0 {
		sizes = []string{"1024x1024", "1024x1536", "1536x1024"} // auto: any of them
	}
	qualities := []string{o.Quality}
	if o.Quality == "" || o.Quality == "auto" {
		qualities = []string{"low", "medium", "high"}
	}
	low, high := math.Inf(1), 0.0
	for _, q := range qualities {
		for _, s := range sizes {
			t, ok := outputTokens[q][s]
			if !ok {
				t = customTokens(q, s)
			}
			if t == 0 {
				return e // a size the table cannot price
			}
			c := float64(t) * p.ImageOut / 1e6
			low, high = math.Min(low, c), math.Max(high, c)
		}
	}
	perInput := 135.0
	if highFidelity {
		perInput = 3050
	}
	in := (float64(promptChars)/4*p.TextIn + float64(inputs)*perInput*p.ImageIn) / 1e6
	e.Low, e.High, e.Priced = low*float64(n)+in, high*float64(n)+in, true
	return e
}

// customTokens prices a custom size by its area against 1024x1024, as
// the service's token counts grow with it.
func customTokens(quality, size string) int64 {
	w, h, ok := api.ParseSize(size)
	base := outputTokens[quality]["1024x1024"]
	if !ok || base == 0 {
		return 0
	}
	return int64(math.Ceil(float64(base) * float64(w*h) / (1024 * 1024)))
}

func perImage(e Estimate, p Price, o api.ImageOptions) Estimate {
	size := o.Size
	if size == "" || size == "auto" {
		size = "1024x1024"
	}
	bySize, ok := p.PerImage[size]
	if !ok {
		return e
	}
	q := o.Quality
	if q == "" || q == "auto" {
		q = "standard"
	}
	each, ok := bySize[q]
	if !ok {
		return e
	}
	n := float64(e.Images)
	e.Low, e.High, e.Priced = each*n, each*n, true
	return e
}

// Cost is what an answer cost from the usage it reports, when the model
// is priced by tokens and the service reported usage; ok is false
// otherwise (the estimate is then the best figure).
func Cost(model string, u *api.Usage) (float64, bool) {
	p, ok := Lookup(model)
	if !ok || u == nil || p.PerImage != nil {
		return 0, false
	}
	text, img := u.TextTokens, u.ImageTokens
	if text == 0 && img == 0 {
		text = u.InputTokens
	}
	out := float64(u.OutputTokens) * p.TextOut
	if p.ImageOut > 0 {
		out = float64(u.OutputTokens) * p.ImageOut
	}
	return (float64(text)*p.TextIn + float64(img)*p.ImageIn + out) / 1e6, true
}
