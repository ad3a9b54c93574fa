package cli

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"easel/internal/demoservice"
	"easel/internal/library"
)

// ledgerOf is every entry of env's ledger, oldest first.
func ledgerOf(t *testing.T, env *Env) []library.Entry {
	t.Helper()
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	entries, err := lib.Ledger().Entries(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// spentOf is what entries count for, all told.
func spentOf(entries []library.Entry) float64 {
	sum := 0.0
	for _, e := range entries {
		v, _ := e.Spent()
		sum += v
	}
	return sum
}

// #54: the profile's own key, whose group nobody declared, is of new-api's
// group "relay" at ×0.5. Before anything is settled the rate is said to
// be assumed; five `easel gen` are each settled by the key's own figure,
// `easel spend` comes to the bill within 2 %, and the rate the figure
// showed is learnt and said as the gateway's usage's.
func TestAKeyOfAnUndeclaredGroupIsSettledToTheBill(t *testing.T) {
	const key = "sk-relay-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "relay", Models: []string{"gpt-image-1"}, Ratio: 0.5},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "")
	if code := run(t, env, "", "balance"); code != 0 || !strings.Contains(out.String(), "group unknown: list price ×1 assumed") {
		t.Fatalf("before any request: %q %q", out, errOut)
	}
	dir := t.TempDir()
	for i, q := range []string{"low", "medium", "high", "low", "medium"} {
		errOut.Reset()
		if code := run(t, env, "", "gen", "--prompt", "a lighthouse at dusk", "--quality", q, "--size", "1024x1024", "--out", dir); code != 0 {
			t.Fatalf("gen %d: %s", i, errOut)
		}
		if i == 0 && (!strings.Contains(errOut.String(), "not yet confirmed by the gateway") || !strings.Contains(errOut.String(), "settles it at")) {
			t.Errorf("the first gen: %q", errOut)
		}
	}
	if code := run(t, env, "", "spend"); code != 0 {
		t.Fatalf("spend: %s", errOut)
	}
	billed := float64(srv.BilledQuota(key)) / demoservice.QuotaPerUnit
	entries := ledgerOf(t, env)
	if got := spentOf(entries); len(entries) != 5 || math.Abs(got-billed) > 0.02*billed {
		t.Errorf("the ledger says $%.6f in %d entries; the gateway billed $%.6f", got, len(entries), billed)
	}
	for _, e := range entries {
		if e.Settled == nil || e.SettledWith != 1 {
			t.Errorf("entry %d is not settled by its own reading: %+v", e.ID, e)
		}
	}
	out.Reset()
	if code := run(t, env, "", "balance"); code != 0 || !strings.Contains(out.String(), "group rate ×0.5 (from the gateway's usage for this key)") {
		t.Errorf("after the figure showed the rate: %q", out)
	}
}

// #54: one-api bills a flat price a picture times the group's ratio (2
// here), publishes neither, and serves the key's own figure through the
// billing pair. Each `easel gen` prints its figure as an estimate, then
// what the figure settled it at; `easel spend` comes to the bill within
// 2 %, each entry settled from the gateway's figure.
func TestOneAPIsFlatPricesAreSettledFromItsUsage(t *testing.T) {
	const key = "sk-oneapi-double-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleOneAPI, Groups: map[string]demoservice.Group{
		key: {Name: "vip", Models: []string{"gpt-image-1"}, Ratio: 2},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "")
	dir := t.TempDir()
	for i := range 5 {
		errOut.Reset()
		if code := run(t, env, "", "gen", "--prompt", "a lighthouse at dusk", "--quality", "low", "--size", "1024x1024", "--out", dir); code != 0 {
			t.Fatalf("gen %d: %s", i, errOut)
		}
		said := errOut.String()
		if !strings.Contains(said, "not yet confirmed by the gateway") || !strings.Contains(said, "settles it at $0.96") {
			t.Errorf("gen %d: %q", i, said)
		}
	}
	if code := run(t, env, "", "spend"); code != 0 {
		t.Fatalf("spend: %s", errOut)
	}
	billed := float64(srv.BilledQuota(key)) / demoservice.QuotaPerUnit
	entries := ledgerOf(t, env)
	if got := spentOf(entries); len(entries) != 5 || billed != 5*0.96 || math.Abs(got-billed) > 0.02*billed {
		t.Errorf("the ledger says $%.6f in %d entries; the gateway billed $%.6f", got, len(entries), billed)
	}
	for _, e := range entries {
		if e.Settled == nil {
			t.Errorf("entry %d is not settled: %+v", e.ID, e)
		}
	}
	out.Reset()
	if code := run(t, env, "", "spend", "--reconcile"); code != 0 || !strings.Contains(out.String(), "/dashboard/billing/usage") || !strings.Contains(out.String(), "They agree.") {
		t.Errorf("reconcile: %q %q", out, errOut)
	}
}

// #54: new-api answers 429 past 20 reads of a key's usage in 20
// minutes. Forty commands in a row (gens and balances, each of which
// would read it) stay within that: the console is never refused, and
// every entry is at the gateway's own figure.
func TestFortyCommandsStayWithinTheConsolesLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("forty commands")
	}
	const key = "sk-busy-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "half", Models: []string{"gpt-image-1"}, Ratio: 0.5},
	}})
	env, _, errOut := gatewayEnv(t, srv, key, "half")
	dir := t.TempDir()
	for i := range 40 {
		args := []string{"balance"}
		if i%4 == 0 {
			args = []string{"gen", "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir}
		}
		if code := run(t, env, "", args...); code != 0 {
			t.Fatalf("command %d (%s): %s", i, args[0], errOut)
		}
		if strings.Contains(errOut.String(), "429") || strings.Contains(errOut.String(), "too many") {
			t.Fatalf("command %d: %q", i, errOut)
		}
	}
	if n := srv.UsageReadsAnswered(); n > 20 {
		t.Errorf("%d reads of the key's usage, more than new-api allows", n)
	}
	billed := float64(srv.BilledQuota(key)) / demoservice.QuotaPerUnit
	if got := spentOf(ledgerOf(t, env)); math.Abs(got-billed) > 1.0/demoservice.QuotaPerUnit*10 {
		t.Errorf("the ledger says $%.6f; the gateway billed $%.6f", got, billed)
	}
}

// #54: what Easel learnt of a key is that key's. The profile's key of
// new-api's group relay (×0.5) makes two pictures, settled and its rate
// learnt; the key is then replaced in the same profile by one of group
// vip (×2), nobody declaring either. The new key's pictures are settled
// by its own figure, not by the distance from the old key's, and the
// rate learnt is the new key's.
func TestAReplacedKeyIsSettledByItsOwnFigure(t *testing.T) {
	const relay, vip = "sk-relay-0123456789", "sk-vip-9876543210"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		relay: {Name: "relay", Models: []string{"gpt-image-1"}, Ratio: 0.5},
		vip:   {Name: "vip", Models: []string{"gpt-image-1"}, Ratio: 2},
	}})
	env, out, errOut := gatewayEnv(t, srv, relay, "")
	dir := t.TempDir()
	gen := func(what string) {
		t.Helper()
		for i := range 2 {
			errOut.Reset()
			if code := run(t, env, "", "gen", "--prompt", "a lighthouse at dusk", "--quality", "medium", "--size", "1024x1024", "--out", dir); code != 0 {
				t.Fatalf("%s gen %d: %s", what, i, errOut)
			}
		}
	}
	gen("relay")
	if code := run(t, env, vip+"\n", "key", "set"); code != 0 {
		t.Fatalf("key set: %s", errOut)
	}
	gen("vip")
	if code := run(t, env, "", "spend"); code != 0 {
		t.Fatalf("spend: %s", errOut)
	}
	entries := ledgerOf(t, env)
	if len(entries) != 4 {
		t.Fatalf("%d entries", len(entries))
	}
	for i, key := range []string{relay, vip} {
		billed := float64(srv.BilledQuota(key)) / demoservice.QuotaPerUnit
		if got := spentOf(entries[2*i : 2*i+2]); math.Abs(got-billed) > 0.02*billed {
			t.Errorf("%s's two entries say $%.6f; the gateway billed that key $%.6f", key, got, billed)
		}
	}
	out.Reset()
	if code := run(t, env, "", "balance"); code != 0 || !strings.Contains(out.String(), "group rate ×2 (from the gateway's usage for this key)") {
		t.Errorf("the new key's rate: %q", out)
	}
}

// #54: sub2api says what each key was charged, in dollars, on /v1/usage.
// Five `easel gen` through it at a group rate of 1.5 are each settled by
// that figure, `easel spend` comes to the bill within 2 %, and
// --reconcile reads the figure there and agrees.
func TestSub2APIsKeyFigureSettlesTheLedger(t *testing.T) {
	const key = "sk-sub2api-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleSub2API, Groups: map[string]demoservice.Group{
		key: {Name: "pro", Models: []string{"gpt-image-1"}, Ratio: 1.5},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "")
	dir := t.TempDir()
	for i, q := range []string{"low", "medium", "high", "low", "medium"} {
		errOut.Reset()
		if code := run(t, env, "", "gen", "--prompt", "a lighthouse at dusk", "--quality", q, "--size", "1024x1024", "--out", dir); code != 0 {
			t.Fatalf("gen %d: %s", i, errOut)
		}
		if !strings.Contains(errOut.String(), "settles it at") {
			t.Errorf("gen %d was not settled: %q", i, errOut)
		}
	}
	if code := run(t, env, "", "spend"); code != 0 {
		t.Fatalf("spend: %s", errOut)
	}
	billed := float64(srv.BilledQuota(key)) / 1e6
	entries := ledgerOf(t, env)
	if got := spentOf(entries); len(entries) != 5 || billed == 0 || math.Abs(got-billed) > 0.02*billed {
		t.Errorf("the ledger says $%.6f in %d entries; the gateway charged $%.6f", got, len(entries), billed)
	}
	for _, e := range entries {
		if e.Settled == nil || e.SettledWith != 1 {
			t.Errorf("entry %d is not settled by its own reading: %+v", e.ID, e)
		}
	}
	out.Reset()
	if code := run(t, env, "", "spend", "--reconcile"); code != 0 || !strings.Contains(out.String(), "/v1/usage") || !strings.Contains(out.String(), "They agree.") {
		t.Errorf("reconcile: %q %q", out, errOut)
	}
}
