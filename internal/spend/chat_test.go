package spend

import (
	"context"
	"math"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/gateway"
	"easel/internal/pricing"
)

// #54: a chat on a gateway key is priced at the rate that key pays, as
// its image requests are, and carries the key's group, so the key's own
// figure settles it with them. Before, a chat was written at list price
// whatever the key's group.
func TestAChatIsPricedAtItsKeysRate(t *testing.T) {
	lib := openLib(t)
	ctx := context.Background()
	req := api.ChatRequest{Model: "gpt-4.1", Messages: []api.Message{{Role: "user", Content: "hello"}}}
	usage := &api.Usage{InputTokens: 10_000, OutputTokens: 2_000, TotalTokens: 12_000}
	list, err := Ledger{Books: lib.Ledger()}.ChatRequest(ctx, pricing.Table{}, "p-list", "", req, usage, "billed")
	if err != nil || !list.Priced || list.Amount.Amount <= 0 {
		t.Fatalf("at list price: %+v, %v", list, err)
	}
	f := gateway.Facts{Learnt: &gateway.Learnt{Rate: 0.5, Requests: 3, At: time.Now()}}
	if err := lib.Ledger().SetGatewayFacts(ctx, "p-relay", "relay", f); err != nil {
		t.Fatal(err)
	}
	relay, err := Ledger{Books: lib.Ledger()}.ChatRequest(ctx, pricing.Table{}, "p-relay", "relay", req, usage, "billed")
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(relay.Amount.Amount-list.Amount.Amount/2) > 1e-9 {
		t.Errorf("on the relay key (rate 0.5 learnt from its usage): %v, want half of %v", relay.Amount.Amount, list.Amount.Amount)
	}
	entries, err := lib.Ledger().Entries(ctx, time.Time{})
	if err != nil || len(entries) != 2 || entries[1].Group != "relay" && entries[0].Group != "relay" {
		t.Errorf("the entry: %+v, %v", entries, err)
	}
}
