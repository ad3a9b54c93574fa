package cli

import (
	"math"
	"strings"
	"testing"

	"easel/internal/demoservice"
)

// #54: two profiles on the same gateway with the same key (a studio's
// desktop profile and its laptop profile, say) share one cache of the
// gateway's facts and one running figure: requests from both, in turn,
// are settled together against the key's figure, so `easel spend` for
// the two comes to what the gateway billed the key; and the rate the
// figure showed is learnt once, for both.
func TestTwoProfilesOnOneKeyShareItsFigures(t *testing.T) {
	const key = "sk-shared-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "relay", Models: []string{"gpt-image-1"}, Ratio: 0.5},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "")
	base := ""
	if code := run(t, env, "", "profile", "list"); code == 0 {
		for _, f := range strings.Fields(out.String()) {
			if strings.HasPrefix(f, "http://") {
				base = f
			}
		}
	}
	if base == "" {
		t.Fatalf("the first profile's base URL: %q", out)
	}
	if code := run(t, env, "", "profile", "add", "--name", "Laptop", "--base-url", base); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	if code := run(t, env, key+"\n", "key", "set", "--profile", "Laptop"); code != 0 {
		t.Fatalf("key: %s", errOut)
	}
	dir := t.TempDir()
	for i, q := range []string{"low", "medium", "high", "low"} {
		profile := []string{"Gateway", "Laptop"}[i%2]
		errOut.Reset()
		if code := run(t, env, "", "gen", "--profile", profile, "--prompt", "a lighthouse at dusk", "--quality", q, "--size", "1024x1024", "--out", dir); code != 0 {
			t.Fatalf("gen %d on %s: %s", i, profile, errOut)
		}
	}
	billed := float64(srv.BilledQuota(key)) / demoservice.QuotaPerUnit
	entries := ledgerOf(t, env)
	if got := spentOf(entries); len(entries) != 4 || math.Abs(got-billed) > 0.02*billed {
		t.Errorf("the two profiles' ledger says $%.6f in %d entries; the gateway billed the key $%.6f", got, len(entries), billed)
	}
	for _, e := range entries {
		if e.Settled == nil {
			t.Errorf("entry %d (%s) is not settled by the key's figure: %+v", e.ID, e.Profile, e)
		}
	}
	out.Reset()
	if code := run(t, env, "", "balance", "--profile", "Laptop"); code != 0 || !strings.Contains(out.String(), "group rate ×0.5 (from the gateway's usage for this key)") {
		t.Errorf("the laptop's balance: %q %q", out, errOut)
	}
}
