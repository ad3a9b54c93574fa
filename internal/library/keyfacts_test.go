package library

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"easel/internal/gateway"
)

// #54: a gallery at version 15 kept gateway facts per profile and key
// slot. Upgraded, facts that name their gateway and key are kept once
// under them, the newer of two slots on the same key winning, and both
// slots read them; facts kept before they were named stay their slot's.
// Written since, facts of a key one profile read are the other's too,
// and forgetting one profile's balance leaves the other's.
func TestFactsAreKeptPerGatewayAndKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v15", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	studio, ok1, err1 := l.Ledger().GatewayFacts(ctx, "p-studio", "")
	laptop, ok2, err2 := l.Ledger().GatewayFacts(ctx, "p-laptop", "relay")
	if err1 != nil || err2 != nil || !ok1 || !ok2 {
		t.Fatalf("after the upgrade: %v %v %v %v", ok1, err1, ok2, err2)
	}
	if studio.Learnt == nil || laptop.Learnt == nil || laptop.Learnt.Rate != 0.5 || !laptop.Checked.Equal(studio.Checked) {
		t.Errorf("the two slots on one key do not read the newer facts: %+v / %+v", studio, laptop)
	}
	if old, ok, err := l.Ledger().GatewayFacts(ctx, "p-old", ""); err != nil || !ok || old.Kind != gateway.OneAPI {
		t.Errorf("the unnamed facts: %+v %v %v", old, ok, err)
	}
	if f, ok, err := l.Ledger().FactsOfKey(ctx, "https://gw.example/v1", "0123456789abcdef"); err != nil || !ok || f.Learnt == nil {
		t.Errorf("by the key: %+v %v %v", f, ok, err)
	}

	at := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	fresh := studio
	fresh.Checked, fresh.UsageReads = at, []time.Time{at}
	if err := l.Ledger().SetGatewayFacts(ctx, "p-laptop", "relay", fresh); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := l.Ledger().GatewayFacts(ctx, "p-studio", ""); !got.Checked.Equal(at) || len(got.UsageReads) != 1 {
		t.Errorf("a read through one profile is not the other's: %+v", got)
	}
	if err := l.Ledger().ForgetBalance(ctx, "p-laptop"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := l.Ledger().GatewayFacts(ctx, "p-laptop", "relay"); ok {
		t.Error("the forgotten profile still has facts")
	}
	if _, ok, _ := l.Ledger().GatewayFacts(ctx, "p-studio", ""); !ok {
		t.Error("forgetting one profile took the other's facts")
	}
}
