package gateway

import (
	"errors"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/pricing"
)

// The billing table, outcome by gateway kind.
func TestTheBillingTable(t *testing.T) {
	e := func(k api.Kind, status int, code string) error {
		return &api.Error{Kind: k, Status: status, Code: code}
	}
	cases := []struct {
		name string
		kind Kind
		x    Ending
		want Verdict
	}{
		{"an answer used", OpenAI, Ending{}, Billed},
		{"killed with the request out", Unknown, Ending{Killed: true}, MayBeBilled},
		{"found before sending", NewAPI, Ending{Err: &api.Error{Kind: api.KindInvalidSize, Preflight: true}}, NotBilled},
		{"the gateway's web page at a wrong base URL", NewAPI, Ending{Err: e(api.KindWrongAddress, 404, "")}, NotBilled},
		{"one-api fails reading what the upstream sent", OneAPI, Ending{Err: e(api.KindServer, 500, "unmarshal_response_body_failed")}, Billed},
		{"the same code elsewhere", NewAPI, Ending{Err: e(api.KindServer, 500, "unmarshal_response_body_failed")}, NotBilled},
		{"new-api's unbilled bad_response_body", NewAPI, Ending{Err: e(api.KindBadResponse, 500, "bad_response_body")}, NotBilled},
		{"bad_response_body through an unknown gateway", Unknown, Ending{Err: e(api.KindBadResponse, 500, "bad_response_body")}, MayBeBilled},
		{"a refused key", NewAPI, Ending{Err: e(api.KindAuth, 401, "")}, NotBilled},
		{"no balance", OneAPI, Ending{Err: e(api.KindInsufficientBalance, 403, "")}, NotBilled},
		{"a quick cancel", OpenAI, Ending{Err: e(api.KindCancelled, 0, ""), Cancelled: true, Out: time.Second}, NotBilled},
		{"a cancel once the service began", OpenAI, Ending{Err: e(api.KindCancelled, 0, ""), Cancelled: true, Out: 6 * time.Second}, MayBeBilled},
		{"a cancel during a long upload", NewAPI, Ending{Err: e(api.KindCancelled, 0, ""), Cancelled: true, Out: 40 * time.Second, Unsent: true}, NotBilled},
		{"a broken link during an upload", OpenAI, Ending{Err: e(api.KindNetwork, 0, ""), Out: 40 * time.Second, Unsent: true}, NotBilled},
		{"a cancel after a preview", NewAPI, Ending{Err: e(api.KindCancelled, 0, ""), Cancelled: true, Arrived: true}, MayBeBilled},
		{"a time-out", OpenAI, Ending{Err: e(api.KindTimeout, 0, "")}, MayBeBilled},
		{"a cut stream", Unknown, Ending{Err: e(api.KindCutOff, 0, "")}, MayBeBilled},
		{"a server error before anything came", OpenAI, Ending{Err: e(api.KindServer, 502, "")}, NotBilled},
		{"a connection that failed before the request was sent", OpenAI, Ending{Err: e(api.KindNetwork, 0, "")}, NotBilled},
		{"a connection that broke after the request was sent", OpenAI, Ending{Err: &api.Error{Kind: api.KindNetwork, Reached: true}}, MayBeBilled},
		{"a plain Go error after previews", Unknown, Ending{Err: errors.New("boom"), Arrived: true}, MayBeBilled},
		{"a redirect loop (#53)", NewAPI, Ending{Err: &api.Error{Kind: api.KindBadResponse, Err: &api.RedirectError{}}}, NotBilled},
		{"a 429 before the model", NewAPI, Ending{Err: e(api.KindRateLimited, 429, "")}, NotBilled},
	}
	for _, c := range cases {
		if got := Judge(c.kind, c.x); got != c.want {
			t.Errorf("%s (%s): %v, want %v", c.name, c.kind, got, c.want)
		}
	}
	perCall := Facts{Kind: NewAPI, Pricing: &api.GatewayPricing{Models: map[string]api.ModelPricing{
		"dall-e-3": {PerCall: true, ModelPrice: 0.04}, "gpt-image-1": {ModelRatio: 2.5}}}}
	if !(Facts{Kind: OneAPI}).BillsAsked("gpt-image-1") || perCall.BillsAsked("gpt-image-1") || !perCall.BillsAsked("dall-e-3") || (Facts{Kind: OpenAI}).BillsAsked("dall-e-3") {
		t.Error("one-api bills the n asked; new-api the n asked of a model priced per call, else what came back")
	}
}

// Quota is new-api's: tokens × model ratio × group ratio, outputs at the
// completion ratio, image inputs at the image ratio; a per-call model at
// its price × quota per unit × group ratio a picture. Units convert at
// the gateway's rates.
func TestQuotaAndUnits(t *testing.T) {
	f := Facts{Kind: NewAPI, Status: &api.GatewayStatus{QuotaPerUnit: 500000, DisplayType: "CNY", ExchangeRate: 7.3},
		Pricing: &api.GatewayPricing{Models: map[string]api.ModelPricing{
			"gpt-image-1": {Model: "gpt-image-1", ModelRatio: 2.5, CompletionRatio: 8, ImageRatio: 2},
			"dall-e-3":    {Model: "dall-e-3", PerCall: true, ModelPrice: 0.04},
		}, GroupRatio: map[string]float64{"default": 1, "half": 0.5}}}
	u := &api.Usage{InputTokens: 110, TextTokens: 10, ImageTokens: 100, OutputTokens: 1056}
	q, ok := f.Quota("gpt-image-1", 0.5, u, 1)
	// (10 + 100×2 + 1056×8) × 2.5 × 0.5 = 10822.5 → 10823 (rounded, as new-api does)
	if !ok || q != 10823 {
		t.Errorf("token quota %v %v", q, ok)
	}
	if q, _ := f.Quota("dall-e-3", 1, nil, 2); q != 40000 {
		t.Errorf("per-call quota %v", q)
	}
	if _, ok := f.Quota("gpt-image-1", 1, nil, 1); ok {
		t.Error("a token-priced model without usage has no quota")
	}
	if r, ok := f.GroupRatio(""); !ok || r != 1 {
		t.Errorf("the unlabelled key is the default group: %v %v", r, ok)
	}
	if v := f.InCurrency(500000, pricing.USD, 1); v != 1 {
		t.Errorf("500,000 units are $%v", v)
	}
	if v := f.InCurrency(500000, pricing.CNY, 7.2); v != 7.3 {
		t.Errorf("in yuan at the gateway's rate: %v", v)
	}
	if v := f.InCurrency(123, pricing.Quota, 0); v != 123 {
		t.Errorf("in quota: %v", v)
	}
	if f.Unit() != pricing.CNY {
		t.Errorf("unit %q", f.Unit())
	}
}
