package library

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"
)

// A library at version 10 keeps every ledger figure through schema 11,
// with no correction. A row the user finds wrong is corrected from 0 up:
// the correction counts in the totals and the budget, the figure Easel
// wrote is kept beside it, a may-have-been-billed row corrected is no
// longer unsure, and taking it back restores what was written. Amounts
// that are not numbers, negative or past MaxCorrection are refused.
func TestALedgerRowIsCorrectedAndKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v10", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	entries, err := l.Ledger().Entries(ctx, time.Time{})
	if err != nil || len(entries) != 4 {
		t.Fatalf("%d entries after the upgrade: %v", len(entries), err)
	}
	var maybe Entry
	for _, e := range entries {
		if e.Corrected != nil || e.Correction != "" {
			t.Errorf("an entry came corrected out of the upgrade: %+v", e)
		}
		if e.Billing == MaybeBilled {
			maybe = e
		}
	}
	if maybe.ID == 0 || maybe.Group != "vip" || maybe.Note == "" || *maybe.EstimateHigh != 0.3328 {
		t.Fatalf("the may-have-been-billed entry: %+v", maybe)
	}
	const profile = "p-0a1b2c3d4e5f"
	before, _ := l.Ledger().SpentSince(ctx, profile, "USD", time.Time{})
	billed0, unsure0, _ := l.Ledger().SpentByKey(ctx, profile, "vip", "USD")

	for _, bad := range []float64{-0.01, math.NaN(), math.Inf(1), MaxCorrection * 2} {
		if err := l.Ledger().Correct(ctx, maybe.ID, bad, "", time.Now()); err == nil {
			t.Errorf("a correction to %v was taken", bad)
		}
	}
	if err := l.Ledger().Correct(ctx, 99999, 1, "", time.Now()); err == nil {
		t.Error("a correction of no entry was taken")
	}
	if err := l.Ledger().Correct(ctx, maybe.ID, 0, "the gateway's log shows it was not billed", time.Now()); err != nil {
		t.Fatal(err)
	}
	after, _ := l.Ledger().SpentSince(ctx, profile, "USD", time.Time{})
	if math.Abs(before-after-0.3328) > 1e-9 {
		t.Errorf("spent %v before, %v after correcting 0.3328 to 0", before, after)
	}
	billed1, unsure1, _ := l.Ledger().SpentByKey(ctx, profile, "vip", "USD")
	if billed1 != billed0 || math.Abs(unsure0-unsure1-0.3328) > 1e-9 {
		t.Errorf("the key's billed %v→%v and unsure %v→%v", billed0, billed1, unsure0, unsure1)
	}
	if u, _ := l.Ledger().Unsure(ctx, time.Time{}); len(u) != 0 {
		t.Errorf("a corrected entry is still unsure: %+v", u)
	}
	got, _, _ := l.Ledger().EntryOfJob(ctx, maybe.Job)
	if got.Corrected == nil || *got.Corrected != 0 || got.Correction != "the gateway's log shows it was not billed" ||
		got.Written() != 0.3328 || got.CorrectedAt.IsZero() {
		t.Errorf("the corrected entry: %+v (written %v)", got, got.Written())
	}
	if amount, estimated := got.Spent(); amount != 0 || estimated {
		t.Errorf("it counts %v (estimated %v)", amount, estimated)
	}
	check, _ := l.Ledger().ToCheck(ctx, profile, time.Time{}, 10)
	if len(check) != 1 || check[0].ID != maybe.ID {
		t.Errorf("to check: %+v", check)
	}
	if err := l.Ledger().Uncorrect(ctx, maybe.ID); err != nil {
		t.Fatal(err)
	}
	if again, _ := l.Ledger().SpentSince(ctx, profile, "USD", time.Time{}); again != before {
		t.Errorf("spent %v after taking the correction back, want %v", again, before)
	}
}
