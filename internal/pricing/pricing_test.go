package pricing

import (
	"math"
	"testing"

	"easel/internal/api"
)

func near(a, b float64) bool { return math.Abs(a-b) < 0.0005 }

// The GPT image models' list prices per picture come out of their token
// counts: gpt-image-1's high 1536x1024 is $0.25 on OpenAI's page.
func TestImagePricesFollowTheListPrices(t *testing.T) {
	for _, tc := range []struct {
		model, size, quality string
		want                 float64
	}{
		{"gpt-image-1", "1024x1024", "low", 0.011},
		{"gpt-image-1", "1024x1024", "medium", 0.042},
		{"gpt-image-1", "1536x1024", "high", 0.248},
		{"gpt-image-1.5", "1024x1024", "high", 0.133},
		{"gpt-image-1-mini", "1024x1536", "medium", 0.0127},
		{"dall-e-3", "1024x1792", "hd", 0.12},
		{"openai/gpt-image-1", "1024x1024", "low", 0.011},
		{"gpt-image-1-2025-04-15", "1024x1024", "low", 0.011},
	} {
		e := Images(api.ImageOptions{Model: tc.model, Size: tc.size, Quality: tc.quality}, 0, 0, false)
		if !e.Priced || !near(e.High, tc.want) || e.Range() {
			t.Errorf("%s %s %s: %+v, want %.4f", tc.model, tc.size, tc.quality, e, tc.want)
		}
	}
}

// n multiplies; auto quality or size is a range; inputs add their
// tokens; an unknown model says no price is set, never zero.
func TestEstimatesSayWhatTheyKnow(t *testing.T) {
	four := Images(api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high", N: 4}, 0, 0, false)
	if !near(four.High, 4*0.1664) || four.String() != "≈ $0.67 for 4 images" {
		t.Errorf("four: %+v %q", four, four)
	}
	auto := Images(api.ImageOptions{Model: "gpt-image-1", N: 2}, 0, 0, false)
	if !auto.Range() || !near(auto.Low, 2*0.01088) || !near(auto.High, 2*0.2496) {
		t.Errorf("auto: %+v %q", auto, auto)
	}
	edit := Images(api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"}, 400, 3, true)
	if !near(edit.High, 0.01088+(100*5+3*3050*10)/1e6) {
		t.Errorf("an edit of three images at high fidelity: %+v", edit)
	}
	none := Images(api.ImageOptions{Model: "gpt-image-9"}, 0, 0, false)
	if none.Priced || none.String() != "no price set for gpt-image-9" {
		t.Errorf("unknown: %+v %q", none, none)
	}
	if got := Dollars(0.004); got != "$0.004" {
		t.Errorf("under a cent: %s", got)
	}
}

// An answer's cost comes from the usage it reports.
func TestCostFromUsage(t *testing.T) {
	c, ok := Cost("gpt-image-1", &api.Usage{InputTokens: 60, TextTokens: 50, ImageTokens: 10, OutputTokens: 4160})
	if !ok || !near(c, (50*5+10*10+4160*40)/1e6) {
		t.Errorf("image: %v %v", c, ok)
	}
	c, ok = Cost("gpt-4.1", &api.Usage{InputTokens: 1000, OutputTokens: 500})
	if !ok || !near(c, (1000*2+500*8)/1e6) {
		t.Errorf("chat: %v %v", c, ok)
	}
	if _, ok := Cost("dall-e-3", &api.Usage{OutputTokens: 1}); ok {
		t.Error("dall-e-3 is priced per image, not by usage")
	}
}
