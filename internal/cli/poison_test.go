package cli

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/secrets/secretstest"
	"easel/internal/testsupport/hostile"
)

// A service's usage that no request makes (negative, the largest int64,
// 1e30) cannot move the money: the row is written at the estimate and
// marked, and a $1.00 daily budget still stops the next over-budget
// request. An image answer's input_tokens of 0 keeps its output tokens.
func TestPoisonedUsageCannotMoveTheBudget(t *testing.T) {
	const key = "sk-poison-0123456789"
	ts := httptest.NewServer(hostile.Server{Key: key})
	defer ts.Close()
	for _, model := range []string{hostile.NegativeUsage, hostile.MaxIntUsage, hostile.HugeUsage} {
		t.Run(model, func(t *testing.T) {
			env, errOut := hostileProfile(t, ts.URL, key, func(p *config.Profile) {
				p.Budget.Daily = 1
				p.Prices.Models = map[string]pricing.Price{model: {TextIn: 5, ImageOut: 40}}
			})
			dir := t.TempDir()
			if code := run(t, env, "", "gen", "--model", model, "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir); code != 0 {
				t.Fatalf("the poisoned answer: %s", errOut)
			}
			lib, err := library.OpenWithoutRepair(env.Library)
			if err != nil {
				t.Fatal(err)
			}
			entries, _ := lib.Ledger().Entries(context.Background(), time.Time{})
			lib.Close()
			if len(entries) != 1 || entries[0].Cost != nil || entries[0].EstimateHigh == nil || !strings.Contains(entries[0].Note, "no request could make") {
				t.Fatalf("the poisoned row: %+v", entries)
			}
			code := run(t, env, "", "gen", "--model", model, "--prompt", "a fox", "--quality", "high", "--n", "8", "--size", "1024x1024", "--out", dir)
			if code != 1 || !strings.Contains(errOut.String(), "over the daily cap of $1.00") {
				t.Errorf("the over-budget request: %d %q", code, errOut)
			}
			// The ledger shows the poisoned row marked, and the user can
			// correct it to what the bill says, keeping what Easel wrote.
			runOut := func(args ...string) string {
				if code := run(t, env, "", args...); code != 0 {
					t.Fatalf("%v: %s", args, errOut)
				}
				return env.Stdout.(*bytes.Buffer).String()
			}
			out := runOut("spend", "--check")
			id := strings.Fields(out)
			if len(id) == 0 || !strings.Contains(out, "no request could make") || !strings.Contains(out, model) {
				t.Fatalf("spend --check: %q", out)
			}
			if code := run(t, env, "", "spend", "--correct", id[0], "--amount", "0.02", "--why", "the gateway's log"); code != 0 {
				t.Fatalf("spend --correct: %s", errOut)
			}
			if out := runOut("spend", "--check"); !strings.Contains(out, "counts $0.02") || !strings.Contains(out, "corrected by you from $") ||
				!strings.Contains(out, "the gateway's log") {
				t.Errorf("after the correction: %q", out)
			}
			if code := run(t, env, "", "spend", "--correct", id[0], "--amount", "-5"); code == 0 {
				t.Error("a negative correction was taken")
			}
		})
	}
}

// An image answer's input_tokens of 0 does not drop its output tokens.
func TestZeroInputTokensKeepTheOutput(t *testing.T) {
	const key = "sk-zero-input-0123456789"
	ts := httptest.NewServer(hostile.Server{Key: key})
	defer ts.Close()
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: key})
	res, err := c.Generate(context.Background(), api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: hostile.ZeroInput}}, nil)
	if err != nil || res.Usage == nil || res.Usage.OutputTokens != 4160 || res.Usage.Implausible {
		t.Fatalf("usage %+v %v", res.Usage, err)
	}
	long, err := c.Generate(context.Background(), api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: hostile.LongRevised}}, nil)
	if err != nil || len(long.Images) != 1 || len(long.Images[0].RevisedPrompt) > api.MaxRevisedPrompt {
		t.Fatalf("a 10 MB revised prompt: %d %v", len(long.Images[0].RevisedPrompt), err)
	}
}

// A connection reset while the answer's headers arrive comes after the
// whole request was sent: the command line says the service may be at
// work on it (not that it could not be reached), and the ledger holds the
// request as may have been billed. A 429 of binary garbage is named as
// such, not printed.
func TestABrokenWireIsSaidAndMayHaveBeenBilled(t *testing.T) {
	const key = "sk-broken-wire-0123456789"
	ts := httptest.NewServer(hostile.Server{Key: key})
	defer ts.Close()
	env, errOut := hostileProfile(t, ts.URL, key, func(p *config.Profile) {
		p.Prices.Models = map[string]pricing.Price{
			hostile.ResetInHeaders: {TextIn: 5, ImageOut: 40}, hostile.Garbage429: {TextIn: 5, ImageOut: 40}}
	})
	dir := t.TempDir()
	errOut.Reset()
	if code := run(t, env, "", "gen", "--model", hostile.ResetInHeaders, "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir); code == 0 {
		t.Fatal("a reset connection succeeded")
	}
	if said := errOut.String(); !strings.Contains(said, "after the request was sent") || strings.Contains(said, "Could not reach") {
		t.Errorf("the reset: %q", said)
	}
	errOut.Reset()
	if code := run(t, env, "", "gen", "--model", hostile.Garbage429, "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir); code == 0 {
		t.Fatal("a 429 succeeded")
	}
	if said := errOut.String(); !strings.Contains(said, "a body that is not text") || strings.Contains(said, "garbage") {
		t.Errorf("the garbage 429: %q", said)
	}
	lib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	entries, _ := lib.Ledger().Entries(context.Background(), time.Time{})
	var maybe []string
	for _, e := range entries {
		if e.Billing == library.MaybeBilled {
			maybe = append(maybe, e.Model)
		}
	}
	if len(maybe) != 1 || maybe[0] != hostile.ResetInHeaders {
		t.Errorf("may have been billed: %v (all %+v)", maybe, entries)
	}
}

// hostileProfile is a command line environment with a gallery and one
// profile on the hostile server at base, holding key, set as change
// says.
func hostileProfile(t *testing.T, base, key string, change func(*config.Profile)) (*Env, *bytes.Buffer) {
	t.Helper()
	env, _, errOut := profileEnv(t, secretstest.NewMemory())
	env.Library = filepath.Join(t.TempDir(), "library")
	if code := run(t, env, "", "profile", "add", "--name", "Hostile", "--base-url", base+"/v1"); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	if code := run(t, env, key+"\n", "key", "set"); code != 0 {
		t.Fatalf("key: %s", errOut)
	}
	if _, err := env.Profiles.Update(func(f *config.File) error {
		change(&f.Profiles[0])
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return env, errOut
}
