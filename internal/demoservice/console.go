package demoservice

import (
	"context"
	"math"
	"net/http"
	"strings"
	"time"

	"easel/internal/api"
	"easel/internal/pricing"
)

// A gateway (new-api, one-api) bills each key in its own quota units,
// at each model's ratios and the key group's ratio, and serves what it
// charges on console endpoints beside /v1: /api/status, /api/pricing,
// /api/usage/token/. With Config.Console set the demo service does the
// same, so Easel's ledger can be checked against the gateway's own bill
// offline. The formulas are new-api's (docs.newapi.pro, "Ratio
// settings"): tokens × model ratio × group ratio, output tokens × the
// completion ratio, image input tokens × the image ratio; a model priced
// per call costs its price × quota per unit × group ratio a picture.

// QuotaPerUnit is new-api's and one-api's default: 500,000 units to the
// dollar (a model ratio of 1 is $2 a million tokens).
const QuotaPerUnit = 500000

// UnlimitedHardLimit is what both gateways answer as hard_limit_usd for
// a key without a limit of its own.
const UnlimitedHardLimit = 100000000

// ratioOf is a list price in dollars a million tokens as a model ratio.
func ratioOf(dollarsPerMillion float64) float64 { return dollarsPerMillion / 2 }

// ModelPrice is one model's line of the demo gateway's price list.
type ModelPrice struct {
	QuotaType                          int
	ModelPrice                         float64
	ModelRatio, CompletionRatio, Image float64
}

// consolePrices are the demo gateway's prices: the list prices as new-api
// ratios, and dall-e-3 per call.
func consolePrices() map[string]ModelPrice {
	out := map[string]ModelPrice{}
	for model, p := range pricing.Defaults {
		switch {
		case len(p.PerImage) > 0:
			out[model] = ModelPrice{QuotaType: 1, ModelPrice: p.PerImage["1024x1024"]["standard"]}
		case p.TextIn > 0:
			mp := ModelPrice{ModelRatio: ratioOf(p.TextIn), CompletionRatio: 1, Image: 1}
			if p.ImageOut > 0 {
				mp.CompletionRatio = p.ImageOut / p.TextIn
			} else if p.TextOut > 0 {
				mp.CompletionRatio = p.TextOut / p.TextIn
			}
			if p.ImageIn > 0 {
				mp.Image = p.ImageIn / p.TextIn
			}
			out[model] = mp
		}
	}
	return out
}

// oneAPIPicture is what one-api charges for one picture of model at
// ratio 1, in quota units: its model ratio × 1,000 (dall-e-3's 20 is
// $0.04). GPT image models are at 240 ($0.48), the flat price the bills
// of #54 showed for a picture the list prices put at $0.25.
func oneAPIPicture(model string) float64 {
	switch {
	case strings.HasPrefix(model, "dall-e-3"):
		return 20 * 1000
	case strings.HasPrefix(model, "dall-e-2"):
		return 8 * 1000
	}
	return 240 * 1000
}

// keyOf is the request's bearer key.
func keyOf(r *http.Request) string {
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// quotaFor is what the gateway charges a key of group g for model with
// usage u and images pictures, in quota units.
func (s *books) quotaFor(g Group, model string, u map[string]any, images int) (int64, bool) {
	mp, ok := consolePrices()[model]
	if !ok {
		return 0, false
	}
	ratio := g.Ratio
	if ratio == 0 {
		ratio = 1
	}
	if s.cfg.Console == ConsoleOneAPI {
		// one-api prices an image request before sending it, flat: the
		// model's picture ratio × 1,000 quota a picture, × the group's
		// ratio × n (relay/controller/image.go); the usage plays no part.
		return int64(math.Round(oneAPIPicture(model) * ratio * float64(max(images, 1)))), true
	}
	if mp.QuotaType == 1 {
		return int64(math.Round(mp.ModelPrice * QuotaPerUnit * ratio * float64(max(images, 1)))), true
	}
	in, out := float64(toInt(u["input_tokens"])), float64(toInt(u["output_tokens"]))
	if in == 0 && out == 0 {
		in, out = float64(toInt(u["prompt_tokens"])), float64(toInt(u["completion_tokens"]))
	}
	text, img := in, 0.0
	if d, ok := u["input_tokens_details"].(map[string]any); ok {
		text, img = float64(toInt(d["text_tokens"])), float64(toInt(d["image_tokens"]))
	}
	tokens := text + img*mp.Image + out*mp.CompletionRatio
	return int64(math.Round(tokens * mp.ModelRatio * ratio)), true
}

// bill charges the request's key as the gateway does; images is how many
// pictures a per-call model is charged for.
func (s *books) bill(ctx context.Context, key, model string, u map[string]any, images int) {
	g, ok := ctx.Value(groupKey{}).(Group)
	if !ok {
		return
	}
	if s.cfg.Console == ConsoleSub2API {
		// sub2api bills the list price times the group's rate.
		s.billDollars(key, g, model, u)
		return
	}
	q, ok := s.quotaFor(g, model, u, images)
	if !ok {
		return
	}
	s.mu.Lock()
	s.quotaUsed[key] += q
	s.mu.Unlock()
}

// billed is what the gateway has charged key, in quota units.
func (s *books) billed(key string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.quotaUsed[key]
}

// exhausted reports whether a key with a limit has spent it: new-api
// then answers every request 401.
func (s *books) exhausted(key string, g Group) bool {
	if g.Limit <= 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.quotaUsed[key] >= g.Limit
}

// handleStatus answers GET /api/status as new-api does.
func (s *books) handleStatus(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Console != ConsoleNewAPI && s.cfg.Console != ConsoleOneAPI {
		invalidURL(w, r)
		return
	}
	display := s.cfg.Display
	if display == "" {
		display = "USD"
	}
	writeJSON(w, map[string]any{"success": true, "message": "", "data": map[string]any{
		"system_name": s.cfg.Console, "quota_per_unit": QuotaPerUnit, "display_in_currency": display != "TOKENS",
		"quota_display_type": display, "usd_exchange_rate": 7.3,
	}})
}

// handlePricing answers GET /api/pricing as new-api does: each model's
// ratios, and the ratio of every group.
func (s *books) handlePricing(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Console != ConsoleNewAPI { // one-api has no price list
		invalidURL(w, r)
		return
	}
	var data []map[string]any
	for model, mp := range consolePrices() {
		data = append(data, map[string]any{"model_name": model, "quota_type": mp.QuotaType, "model_price": mp.ModelPrice,
			"model_ratio": mp.ModelRatio, "completion_ratio": mp.CompletionRatio, "image_ratio": mp.Image, "enable_groups": []string{"all"}})
	}
	ratios := map[string]float64{"default": 1}
	for _, g := range s.cfg.Groups {
		if g.Ratio > 0 {
			ratios[g.Name] = g.Ratio
		} else {
			ratios[g.Name] = 1
		}
	}
	writeJSON(w, map[string]any{"success": true, "data": data, "group_ratio": ratios})
}

// handleTokenUsage answers GET /api/usage/token/ as new-api does, for the
// key that asks.
func (s *books) handleTokenUsage(w http.ResponseWriter, r *http.Request) {
	g, ok := r.Context().Value(groupKey{}).(Group)
	if s.cfg.Console != ConsoleNewAPI || !ok {
		invalidURL(w, r)
		return
	}
	if !s.mayReadUsage(r) {
		// new-api's rate limit on its console: 20 reads in 20 minutes
		// from one address (middleware/rate-limit.go, CriticalRateLimit).
		writeError(w, http.StatusTooManyRequests, "请求过于频繁，请稍后再试", "", "", "")
		return
	}
	used := s.billed(keyOf(r))
	avail := g.Limit - used
	if g.Limit <= 0 {
		avail = -used // new-api counts an unlimited key down below zero
	}
	writeJSON(w, map[string]any{"code": true, "message": "ok", "data": map[string]any{
		"object": "token_usage", "name": g.Name + " key", "total_granted": used + avail, "total_used": used,
		"total_available": avail, "unlimited_quota": g.Limit <= 0, "expires_at": 0,
	}})
}

// new-api's limit on its console reads, per address.
const (
	usageLimit  = 20
	usageWindow = 20 * time.Minute
)

// mayReadUsage counts a read of /api/usage/token/ from r's address and
// reports whether it is within new-api's limit.
func (s *books) mayReadUsage(r *http.Request) bool {
	addr, _, _ := strings.Cut(r.RemoteAddr, ":")
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	recent := s.usageReads[addr][:0:0]
	for _, at := range s.usageReads[addr] {
		if now.Sub(at) < usageWindow {
			recent = append(recent, at)
		}
	}
	s.usageReads[addr] = recent
	if len(recent) >= usageLimit {
		return false
	}
	s.usageReads[addr] = append(recent, now)
	s.usageAnswered++
	return true
}

// ConsoleSub2API makes the server answer /v1/sub2api/billing as sub2api
// does: each key's group's effective rate multiplier on the list prices.
const ConsoleSub2API = "sub2api"

// handleSub2APIBilling answers GET /v1/sub2api/billing for the key.
func (s *books) handleSub2APIBilling(w http.ResponseWriter, r *http.Request) {
	g, ok := r.Context().Value(groupKey{}).(Group)
	if s.cfg.Console != ConsoleSub2API || !ok {
		invalidURL(w, r)
		return
	}
	rate := g.Ratio
	if rate == 0 {
		rate = 1
	}
	writeJSON(w, map[string]any{"success": true, "data": map[string]any{"group": g.Name, "effective_rate_multiplier": rate}})
}

// handleSub2APIUsage answers GET /v1/usage as sub2api does for a key
// without limits of its own: the wallet's balance, and the key's usage
// totals with what it was charged (actual_cost, in dollars).
func (s *books) handleSub2APIUsage(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Console != ConsoleSub2API {
		invalidURL(w, r)
		return
	}
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	spent := float64(s.billed(key)) / 1e6
	total := map[string]any{"requests": 0, "cost": spent, "actual_cost": spent}
	writeJSON(w, map[string]any{"mode": "unrestricted", "isValid": true, "planName": "钱包余额", "unit": "USD",
		"remaining": max(0, s.credit()-spent), "usage": map[string]any{"today": total, "total": total}})
}

// billDollars charges a sub2api key the list price of usage u times its
// group's rate, in millionths of a dollar (quotaUsed's unit for sub2api).
func (s *books) billDollars(key string, g Group, model string, u map[string]any) {
	usage := &api.Usage{InputTokens: toInt(u["input_tokens"]), OutputTokens: toInt(u["output_tokens"])}
	if d, ok := u["input_tokens_details"].(map[string]any); ok {
		usage.TextTokens, usage.ImageTokens = toInt(d["text_tokens"]), toInt(d["image_tokens"])
	}
	cost, ok := pricing.Table{GroupRate: g.Ratio}.Cost(pricing.Billed{Model: model, Usage: usage, Images: 1})
	if !ok {
		return
	}
	s.mu.Lock()
	s.quotaUsed[key] += int64(math.Round(cost * 1e6))
	s.mu.Unlock()
}
