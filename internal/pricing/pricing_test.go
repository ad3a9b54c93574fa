package pricing

import (
	"math"
	"testing"

	"easel/internal/api"
)

func near(a, b float64) bool { return math.Abs(a-b) < 0.0005 }

// Every size × quality of the default table: the GPT image models' list
// prices per picture come out of their token counts (gpt-image-1's high
// 1536x1024 is $0.25 on OpenAI's page), dall-e's are its flat prices.
func TestEveryDefaultSizeAndQuality(t *testing.T) {
	perM := map[string]float64{"gpt-image-1": 40, "gpt-image-1.5": 32, "gpt-image-1-mini": 8}
	for model, out := range perM {
		for q, bySize := range outputTokens {
			for size, tokens := range bySize {
				e := Images(api.ImageOptions{Model: model, Size: size, Quality: q}, 0, 0, false)
				want := float64(tokens) * out / 1e6
				if !e.Priced || e.Range() || !near(e.High, want) {
					t.Errorf("%s %s %s: %+v, want %.4f", model, size, q, e, want)
				}
			}
		}
	}
	for _, model := range []string{"dall-e-3", "dall-e-2"} {
		p, _ := Lookup(model)
		for size, byQ := range p.PerImage {
			for q, each := range byQ {
				e := Images(api.ImageOptions{Model: model, Size: size, Quality: q, N: 2}, 0, 0, false)
				if !e.Priced || !near(e.High, 2*each) {
					t.Errorf("%s %s %s: %+v, want %.3f", model, size, q, e, 2*each)
				}
			}
		}
	}
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
		{"gpt-image-1", "2048x2048", "low", 4 * 0.01088}, // custom: by area
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
	if auto.String() != "$0.02–$0.50 for 2 images (the service picks size or quality)" {
		t.Errorf("auto says %q", auto)
	}
	dalle := Images(api.ImageOptions{Model: "dall-e-3"}, 0, 0, false)
	if dalle.Range() || !near(dalle.High, 0.04) {
		t.Errorf("dall-e-3's auto is its standard square: %+v", dalle)
	}
	edit := Images(api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"}, 400, 3, true)
	if !near(edit.High, 0.01088+(100*5+3*3050*10)/1e6) {
		t.Errorf("an edit of three images at high fidelity: %+v", edit)
	}
	for _, model := range []string{"gpt-image-9", "gpt-4o"} {
		none := Images(api.ImageOptions{Model: model}, 0, 0, false)
		if none.Priced || none.String() != "no price set for "+model {
			t.Errorf("%s: %+v %q", model, none, none)
		}
	}
	if got := Dollars(0.004); got != "$0.004" {
		t.Errorf("under a cent: %s", got)
	}
	batch := four.Times(3).Plus(Images(api.ImageOptions{Model: "gpt-image-9"}, 0, 0, false))
	if batch.Priced || batch.Images != 13 {
		t.Errorf("a batch with an unpriced request is unpriced: %+v", batch)
	}
}

// A profile's currency converts the list prices, its group rate
// multiplies everything, and its own prices replace the list's.
func TestTablesCurrenciesRatesAndOwnPrices(t *testing.T) {
	o := api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "medium"}
	for _, tc := range []struct {
		table Table
		want  float64
		says  string
	}{
		{Table{}, 0.04224, "≈ $0.04 for 1 image"},
		{Table{Currency: CNY}, 0.04224 * 7.2, "≈ ¥0.30 for 1 image"},
		{Table{Currency: CNY, PerDollar: 1}, 0.04224, "≈ ¥0.04 for 1 image"},
		{Table{Currency: Quota}, 0.04224 * 500000, "≈ 21,120 quota for 1 image"},
		{Table{GroupRate: 0.5}, 0.02112, "≈ $0.02 for 1 image"},
		{Table{Currency: CNY, PerDollar: 1, GroupRate: 2}, 0.08448, "≈ ¥0.08 for 1 image"},
		{Table{Currency: CNY, Models: map[string]Price{"gpt-image-1": {PerImage: map[string]map[string]float64{"1024x1024": {"medium": 0.2}}}}}, 0.2, "≈ ¥0.20 for 1 image"},
		{Table{Currency: CNY, GroupRate: 1.5, Models: map[string]Price{"gpt-image-1": {ImageOut: 10}}}, 1056 * 10 * 1.5 / 1e6, "≈ ¥0.02 for 1 image"},
	} {
		e := tc.table.Images(o, 0, 0, false)
		if !e.Priced || math.Abs(e.High-tc.want) > 1e-9*max(1, tc.want) || e.String() != tc.says {
			t.Errorf("%+v: %+v %q, want %.5f %q", tc.table, e, e, tc.want, tc.says)
		}
	}
	own := Table{Models: map[string]Price{"house-model": {ImageOut: 20}}}
	if e := own.Images(api.ImageOptions{Model: "house-model", Size: "1024x1024", Quality: "low"}, 0, 0, false); !e.Priced || !near(e.High, 272*20/1e6) {
		t.Errorf("a model only the profile prices: %+v", e)
	}
	if _, isOwn, ok := own.Lookup("gpt-image-1"); !ok || isOwn {
		t.Error("a model the profile does not price falls back to the list")
	}
	// A price of its own for one picture keeps the list's for the rest.
	flat := Table{Currency: CNY, PerDollar: 7, Models: map[string]Price{"gpt-image-1": {PerImage: map[string]map[string]float64{"1024x1024": {"medium": 0.3}}}}}
	if e := flat.Images(api.ImageOptions{Model: "gpt-image-1", Size: "1536x1024", Quality: "medium"}, 0, 0, false); !near(e.High, 1568*40/1e6*7) {
		t.Errorf("another size falls back to the list price: %+v", e)
	}
	if c, _ := flat.Cost(Billed{Model: "gpt-image-1", Images: 2, Size: "1024x1024", Quality: "medium", Usage: &api.Usage{TextTokens: 100}}); !near(c, 0.6+100*5*7/1e6) {
		t.Errorf("cost at its own per-picture price, the prompt at the list's: %v", c)
	}
	if s := (Money{Amount: 1234567, Currency: Quota}).String(); s != "1,234,567 quota" {
		t.Errorf("quota: %s", s)
	}
}

// An answer's cost comes from the usage it reports, in the table's
// currency; a chat estimate is its input up to a long reply.
func TestCostFromUsage(t *testing.T) {
	var list Table
	c, ok := list.Cost(Billed{Model: "gpt-image-1", Images: 1, Usage: &api.Usage{InputTokens: 60, TextTokens: 50, ImageTokens: 10, OutputTokens: 4160}})
	if !ok || !near(c, (50*5+10*10+4160*40)/1e6) {
		t.Errorf("image: %v %v", c, ok)
	}
	c, ok = list.Cost(Billed{Model: "gpt-4.1", Usage: &api.Usage{InputTokens: 1000, OutputTokens: 500}})
	if !ok || !near(c, (1000*2+500*8)/1e6) {
		t.Errorf("chat: %v %v", c, ok)
	}
	c, ok = list.Cost(Billed{Model: "dall-e-3", Images: 2, Size: "1024x1024", Quality: "hd"})
	if !ok || !near(c, 0.16) {
		t.Errorf("dall-e-3 is priced per image: %v %v", c, ok)
	}
	if _, ok := list.Cost(Billed{Model: "gpt-image-1", Images: 1}); ok {
		t.Error("no usage reported: no cost, the estimate stands")
	}
	if _, ok := list.Cost(Billed{Model: "mystery", Usage: &api.Usage{OutputTokens: 9}}); ok {
		t.Error("no price set: no cost")
	}
	cny := Table{Currency: CNY, PerDollar: 7, GroupRate: 0.8}
	c, _ = cny.Cost(Billed{Model: "gpt-4.1", Usage: &api.Usage{InputTokens: 1000, OutputTokens: 500}})
	if !near(c, (1000*2+500*8)/1e6*7*0.8) {
		t.Errorf("in yuan at a group rate: %v", c)
	}
	e := list.Chat("gpt-4.1", 4000, 0)
	if !e.Range() || !near(e.Low, 1000*2/1e6) || !near(e.High, (1000*2+ReplyTokens*8)/1e6) {
		t.Errorf("chat estimate: %+v %q", e, e)
	}
	if e := list.Chat("gpt-image-1", 40, 0); e.Priced && e.High == 0 {
		t.Errorf("an image model in chat: %+v", e)
	}
}

// A sum of estimates with one unpriced model names that model, whichever
// comes first (the comparison board said "no price set for gpt-image-1"
// when dall-e-3 was the one).
func TestASumNamesTheUnpricedModel(t *testing.T) {
	o := api.ImageOptions{Size: "1024x1024", Quality: "low"}
	priced, unpriced := o, o
	priced.Model, unpriced.Model = "gpt-image-1", "some-new-model"
	sum := Table{}.Images(priced, 10, 0, false).Plus(Table{}.Images(unpriced, 10, 0, false))
	if sum.Priced || sum.String() != "no price set for some-new-model" {
		t.Errorf("the sum says %q", sum)
	}
}
