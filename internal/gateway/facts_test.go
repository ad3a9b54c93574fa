package gateway

import (
	"testing"
	"time"

	"easel/internal/api"
)

// Facts read of another gateway are dropped whole; of another key at the
// same gateway, they keep the gateway's own and lose the key's.
func TestFactsAreOfOneGatewayAndKey(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	f := Facts{Kind: NewAPI, Pricing: &api.GatewayPricing{}, Usage: &api.TokenUsage{Used: 9}, UsageChecked: at,
		Anchor: &Reading{Used: 9, Unit: UnitQuota, At: at}, Learnt: &Learnt{Rate: 0.5}, UsageReads: []time.Time{at},
		BaseURL: "https://gw.example/v1/", KeyID: "aaaa"}
	if g, mine := f.Of("https://gw.example/v1/", "aaaa"); !mine || g.Usage == nil || g.Anchor == nil {
		t.Errorf("the same key lost its facts: %+v", g)
	}
	g, mine := f.Of("https://gw.example/v1/", "bbbb")
	if mine || g.Usage != nil || g.Anchor != nil || g.Learnt != nil || !g.UsageChecked.IsZero() {
		t.Errorf("another key kept the first key's figures: %+v", g)
	}
	if g.Kind != NewAPI || g.Pricing == nil || len(g.UsageReads) != 1 || g.KeyID != "bbbb" {
		t.Errorf("another key lost the gateway's own facts: %+v", g)
	}
	if g, mine := f.Of("https://other.example/v1/", "aaaa"); mine || g.Kind != Unknown || g.Pricing != nil {
		t.Errorf("another gateway kept this one's facts: %+v", g)
	}
	if g, mine := (Facts{Kind: OneAPI}).Of("https://gw.example/v1/", "aaaa"); !mine || g.Kind != OneAPI {
		t.Errorf("facts kept before they were named: %+v", g)
	}
}
