package library

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// #54: version 14 adds settling; a ledger written at 13 keeps every
// entry as it was, unsettled, counting what it counted.
func TestSchema14KeepsTheLedgerUnsettled(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v13", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	all, err := l.Ledger().query(ctx, `SELECT `+entryColumns+` FROM ledger ORDER BY id`)
	if err != nil || len(all) != 4 {
		t.Fatalf("%d entries: %v", len(all), err)
	}
	for _, e := range all {
		if e.Settled != nil || e.SettledWith != 0 {
			t.Errorf("entry %d came settled: %+v", e.ID, e)
		}
		if got, _ := e.Spent(); got != e.Written() && e.Corrected == nil {
			t.Errorf("entry %d counts %v, wrote %v", e.ID, got, e.Written())
		}
	}
}

// A settled entry counts the gateway's figure; a correction still wins;
// the entries a pair of readings covers are those written between them.
func TestASettledEntryCountsTheGatewaysFigure(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	cost := 0.25
	var ids []int64
	for i := range 3 {
		id, err := l.Ledger().Record(ctx, Entry{At: t0.Add(time.Duration(i+1) * time.Minute), Profile: "p", Model: "gpt-image-1", Kind: SpendGenerate,
			Outcome: Billed, Cost: &cost, Currency: "USD"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	got, err := l.Ledger().Unsettled(ctx, "p", "", "USD", t0.Add(90*time.Second), t0.Add(3*time.Minute))
	if err != nil || len(got) != 2 || got[0].ID != ids[1] {
		t.Fatalf("covered %+v (%v), want the second and third", got, err)
	}
	if err := l.Ledger().Correct(ctx, ids[2], 0, "refunded", t0); err != nil {
		t.Fatal(err)
	}
	if err := l.Ledger().Settle(ctx, map[int64]float64{ids[1]: 0.48, ids[2]: 0.48}, 2, t0.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	billed, _, _ := l.Ledger().SpentByKey(ctx, "p", "", "USD")
	if want := 0.25 + 0.48 + 0; billed < want-1e-9 || billed > want+1e-9 {
		t.Errorf("the key spent %v, want %v (written, settled, corrected)", billed, want)
	}
	if left, _ := l.Ledger().Unsettled(ctx, "p", "", "USD", t0, t0.Add(time.Hour)); len(left) != 1 || left[0].ID != ids[0] {
		t.Errorf("still unsettled: %+v", left)
	}
	// settled far from what Easel wrote: listed to look at, with the
	// corrected one; the unsettled one is not
	check, _ := l.Ledger().ToCheck(ctx, "p", t0, 10)
	if len(check) != 2 || check[0].ID != ids[2] || check[1].ID != ids[1] || check[1].Settled == nil || *check[1].Settled != 0.48 {
		t.Errorf("to check: %+v", check)
	}
}
