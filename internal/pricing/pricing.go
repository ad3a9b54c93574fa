// Package pricing says what a request will cost before it is sent, and
// what an answer cost from the usage it reports. The service bills GPT
// image models by tokens (text and image input, image output) and the
// older models per image; a designer finds out only afterwards, on the
// gateway's console. The defaults here are the public list prices, each
// with its source and date; a model without a price says so rather than
// costing nothing.
//
// A profile's Table turns these into its own currency (US dollars,
// yuan, or a gateway's "quota" units) at its own rates, with prices of
// its own for what a reseller charges; the ledger (internal/library) and
// the budget read amounts made here.
package pricing

import (
	"math"
	"strings"

	"easel/internal/api"
	"easel/internal/capability"
)

// Price is one model's price: the defaults are US dollars, a profile's
// own prices are in its currency.
type Price struct {
	// Per million tokens: text and image input, image and text output.
	TextIn   float64 `json:"text_in,omitempty"`
	ImageIn  float64 `json:"image_in,omitempty"`
	ImageOut float64 `json:"image_out,omitempty"`
	TextOut  float64 `json:"text_out,omitempty"`
	// PerImage, for models billed per picture (dall-e, or a gateway
	// that charges a flat price by size and quality), by size then
	// quality; it wins over the token prices for image output.
	PerImage map[string]map[string]float64 `json:"per_image,omitempty"`
	// Source and Date say where the figures come from, and when they
	// were read: prices change.
	Source string `json:"source,omitempty"`
	Date   string `json:"date,omitempty"`
	// Sheet marks a price read from a model's capability sheet: its
	// output tokens per picture are the sheet's Tokens (by quality, at
	// 1024x1024), and none where the sheet gives none; SVGUnknown that an
	// SVG result costs an extra no source states.
	Sheet      bool             `json:"-"`
	Tokens     map[string]int64 `json:"-"`
	SVGUnknown bool             `json:"-"`
	// PerCall is a flat price a picture whatever its size and quality:
	// a gateway's model priced per call (new-api's quota_type 1).
	PerCall float64 `json:"-"`
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
	"dall-e-2": {PerImage: map[string]map[string]float64{
		"256x256":   {"standard": 0.016},
		"512x512":   {"standard": 0.018},
		"1024x1024": {"standard": 0.02},
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
	// A model of a family whose sheet carries its price (GPT Image 2
	// and later): the sheet's rates and tokens, with its source.
	if s, ok := capability.Lookup(m); ok && s.Price != nil {
		sp := s.Price
		return Price{TextIn: sp.TextIn, ImageIn: sp.ImageIn, ImageOut: sp.ImageOut, Source: sp.Source, Date: sp.Date,
			Sheet: true, Tokens: sp.OutputTokens, SVGUnknown: sp.SVG == "unknown"}, true
	}
	return Price{}, false
}

// isSnapshot reports a date suffix such as 2025-04-15.
func isSnapshot(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && strings.Trim(s, "0123456789-") == ""
}

// OutputTokens is how many image tokens one picture of quality and size
// bills on a GPT image model; a custom size is priced by its area against
// 1024x1024, as the service's counts grow with it. It is 0 for a quality
// or size it cannot price (auto: the service picks).
func OutputTokens(quality, size string) int64 {
	if t, ok := outputTokens[quality][size]; ok {
		return t
	}
	return customTokens(quality, size)
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
