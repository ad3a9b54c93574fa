package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/pricing"
)

// After three `easel gen` runs against the demo service, `easel spend
// --by model` is the sum of their usage times the list prices, to the
// cent; --estimate prints the estimate and sends nothing.
func TestSpendSumsWhatTheRunsCost(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	env.Library = filepath.Join(t.TempDir(), "gallery")
	runs := []struct {
		prompt, size, quality string
		n                     int
	}{
		{"a lighthouse at dusk", "1024x1024", "high", 2},
		{"a fox in snow, watercolour", "1536x1024", "medium", 1},
		{"poster, bold type", "1024x1536", "low", 3},
	}
	want := 0.0
	for _, r := range runs {
		args := []string{"gen", "--prompt", r.prompt, "--size", r.size, "--quality", r.quality, "--n", fmt.Sprint(r.n), "--out", t.TempDir()}
		out.Reset()
		if code := Run(append(args, "--estimate"), env); code != 0 {
			t.Fatalf("estimate: exit %d: %s", code, errOut)
		}
		estimate := strings.TrimSpace(out.String())
		if strings.Contains(estimate, ".png") || !strings.HasPrefix(estimate, "≈ $") || !strings.HasSuffix(estimate, fmt.Sprintf("for %d images", r.n)) && r.n > 1 {
			t.Errorf("--estimate printed %q", estimate)
		}
		out.Reset()
		if code := Run(args, env); code != 0 {
			t.Fatalf("gen: exit %d: %s", code, errOut)
		}
		// What the service bills, worked out by hand: the prompt's text
		// tokens at $5 a million and each picture's output tokens (the
		// published table) at $40.
		text := len(r.prompt)/4 + 1
		tokens := map[string]int{"1024x1024/high": 4160, "1536x1024/medium": 1568, "1024x1536/low": 408}[r.size+"/"+r.quality]
		want += (float64(text)*5 + float64(tokens*r.n)*40) / 1e6
	}
	if !strings.Contains(errOut.String(), "easel: cost $") {
		t.Errorf("gen does not say what it cost: %s", errOut)
	}
	out.Reset()
	if code := Run([]string{"spend", "--by", "model"}, env); code != 0 {
		t.Fatalf("spend: exit %d: %s", code, errOut)
	}
	if line := topLine(out.String()); !strings.Contains(line, "gpt-image-1") || !strings.Contains(line, pricing.Dollars(want)) ||
		!strings.Contains(line, "3 requests") || !strings.Contains(line, "6 images") {
		t.Errorf("spend --by model: %q, want %s", out.String(), pricing.Dollars(want))
	}
	out.Reset()
	if code := Run([]string{"spend", "--by", "model", "--csv"}, env); code != 0 {
		t.Fatalf("spend --csv: exit %d: %s", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out.String())).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv %q: %v", out, err)
	}
	got, _ := strconv.ParseFloat(rows[1][2], 64)
	if math.Round(got*100) != math.Round(want*100) || math.Abs(got-want) > 1e-6 {
		t.Errorf("csv amount %v, want %v", got, want)
	}
	out.Reset()
	if code := Run([]string{"spend", "--by", "day", "--since", "2000-01-01"}, env); code != 0 || !strings.Contains(out.String(), "total") {
		t.Errorf("spend --by day: %d %q", code, out)
	}
	if code := Run([]string{"spend", "--by", "colour"}, env); code != 2 {
		t.Errorf("a wrong --by is a usage mistake: exit %d", code)
	}
}

// A chat's estimate is a range (the reply's length is not known), and
// the reply is written in the ledger.
func TestChatEstimatesAndIsRecorded(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	env.Library = filepath.Join(t.TempDir(), "gallery")
	if code := Run([]string{"chat", "--model", "gpt-4.1", "--estimate", "three poster ideas"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if s := out.String(); !strings.Contains(s, "for this message (the reply's length decides)") {
		t.Errorf("chat --estimate: %q", s)
	}
	out.Reset()
	if code := Run([]string{"chat", "--model", "gpt-4.1", "three poster ideas"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out.Reset()
	if code := Run([]string{"spend", "--by", "kind"}, env); code != 0 || !strings.Contains(out.String(), "chat") {
		t.Errorf("the chat is not in the ledger: %q %s", out, errOut)
	}
}

func topLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// A request that would pass the profile's daily cap is not sent unless
// --over-budget says so; the command line cannot ask.
func TestGenRefusesToPassTheBudget(t *testing.T) {
	env, out, errOut := testEnv(t, fake(t))
	env.Getenv = func(string) string { return "" }
	env.Library = filepath.Join(t.TempDir(), "gallery")
	base := fake(t)
	p := config.Profile{ID: "p-capped", Name: "Capped", BaseURL: base, Budget: config.Budget{Daily: 0.05}}
	if _, err := env.Profiles.Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	if err := env.Keys.Set(context.Background(), p.ID, "sk-cli-test-key-123456"); err != nil {
		t.Fatal(err)
	}
	args := []string{"gen", "--prompt", "a fox", "--size", "1024x1024", "--quality", "medium", "--out", t.TempDir()}
	if code := Run(args, env); code != 0 { // $0.04: within the cap
		t.Fatalf("exit %d: %s", code, errOut)
	}
	errOut.Reset()
	if code := Run(args, env); code != 1 || !strings.Contains(errOut.String(), "not sent: This would take today's spend from $0.04 to $0.08, over the daily cap of $0.05") {
		t.Errorf("over the cap: exit %d: %s", code, errOut)
	}
	out.Reset()
	if code := Run(append(args, "--over-budget"), env); code != 0 || !strings.Contains(out.String(), ".png") {
		t.Errorf("--over-budget: exit %d: %s", code, errOut)
	}
}

// In Chinese the failure line names and explains the failure in Chinese,
// and keeps the service's own words as they came.
func TestTheFailureLineSpeaksChinese(t *testing.T) {
	catalogue.Use("zh_CN.UTF-8")
	defer catalogue.Use("en")
	env, _, errOut := testEnv(t, fake(t))
	if code := Run([]string{"gen", "--model", "fault-no-balance", "--prompt", "x"}, env); code != 1 {
		t.Fatalf("exit %d", code)
	}
	line := errOut.String()
	if !strings.HasPrefix(line, "easel: 余额不足") || !strings.Contains(line, "请到服务商的控制台充值后再试") {
		t.Errorf("the failure line: %q", line)
	}
}
