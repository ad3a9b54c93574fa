package demoservice

import (
	"net/http"
	"sync"
	"time"

	"easel/internal/api"
	"easel/internal/pricing"
)

// DefaultCredit is the demo account's credit in dollars, what its
// billing endpoints start from.
const DefaultCredit = 25.0

// books are the account's books as a gateway keeps them: what the
// account has used at list prices (its OpenAI-style billing pair) and
// what the console has billed each key (new-api's and one-api's quota,
// sub2api's dollars), and the endpoints that report them.
type books struct {
	cfg *Config
	mu  sync.Mutex
	// used is the dollars spent at list prices.
	used float64
	// quotaUsed is what the console has billed each key, in quota units
	// (millionths of a dollar for sub2api).
	quotaUsed map[string]int64
	// usageReads are when each address read /api/usage/token/, within
	// the last usageWindow; usageAnswered counts the reads answered.
	usageReads    map[string][]time.Time
	usageAnswered int
}

func newBooks(cfg *Config) *books {
	return &books{cfg: cfg, quotaUsed: map[string]int64{}, usageReads: map[string][]time.Time{}}
}

// UsageReadsAnswered is how many reads of /api/usage/token/ the console
// answered (not those it refused with 429).
func (s *Server) UsageReadsAnswered() int {
	s.books.mu.Lock()
	defer s.books.mu.Unlock()
	return s.books.usageAnswered
}

// Used is what the account has spent at list prices, in dollars.
func (s *Server) Used() float64 { return s.books.spent() }

// BilledQuota is what the gateway has charged key, in quota units.
func (s *Server) BilledQuota(key string) int64 { return s.books.billed(key) }

// charge adds what an answer's usage costs at list prices to what the
// account has used, as a gateway deducts it: the balance its billing
// endpoints report goes down by what Easel's ledger says it spent.
func (s *books) charge(model string, u map[string]any) {
	usage := &api.Usage{InputTokens: toInt(u["input_tokens"]), OutputTokens: toInt(u["output_tokens"])}
	if d, ok := u["input_tokens_details"].(map[string]any); ok {
		usage.TextTokens, usage.ImageTokens = toInt(d["text_tokens"]), toInt(d["image_tokens"])
	}
	if usage.InputTokens == 0 {
		usage.InputTokens, usage.OutputTokens = toInt(u["prompt_tokens"]), toInt(u["completion_tokens"])
	}
	images := 0
	if _, ok := u["input_tokens_details"]; ok {
		images = 1
	}
	cost, ok := pricing.Table{}.Cost(pricing.Billed{Model: model, Usage: usage, Images: images})
	if !ok {
		return
	}
	s.mu.Lock()
	s.used += cost
	s.mu.Unlock()
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case int:
		return int64(n)
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}

// credit is the account's credit in dollars.
func (s *books) credit() float64 {
	if s.cfg.Credit > 0 {
		return s.cfg.Credit
	}
	return DefaultCredit
}

// handleSubscription answers GET /v1/dashboard/billing/subscription as
// new-api and one-api do for a key: the credit as hard_limit_usd.
func (s *books) handleSubscription(w http.ResponseWriter, r *http.Request) {
	if s.cfg.NoBilling {
		invalidURL(w, r)
		return
	}
	c := s.credit()
	if g, ok := r.Context().Value(groupKey{}).(Group); ok && s.cfg.Console != "" {
		c = UnlimitedHardLimit
		if g.Limit > 0 {
			c = float64(g.Limit) / QuotaPerUnit
		}
	}
	writeJSON(w, map[string]any{"object": "billing_subscription", "has_payment_method": true,
		"soft_limit_usd": c, "hard_limit_usd": c, "system_hard_limit_usd": c, "access_until": 0})
}

// handleUsage answers GET /v1/dashboard/billing/usage: what has been
// used, in cents of a dollar.
func (s *books) handleUsage(w http.ResponseWriter, r *http.Request) {
	if s.cfg.NoBilling {
		invalidURL(w, r)
		return
	}
	s.mu.Lock()
	used := s.used
	if s.cfg.Console != "" {
		used = float64(s.quotaUsed[keyOf(r)]) / QuotaPerUnit
	}
	s.mu.Unlock()
	writeJSON(w, map[string]any{"object": "list", "total_usage": used * 100})
}

// spent is what the account has spent at list prices, in dollars.
func (s *books) spent() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}
