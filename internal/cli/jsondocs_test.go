package cli

import (
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/demoservice"
	"easel/internal/testsupport/fixture"
)

// decodeDoc parses one --json document into v and checks its head.
func decodeDoc(t *testing.T, command, out string, v any) {
	t.Helper()
	var h jsonHead
	if err := json.Unmarshal([]byte(out), &h); err != nil || h.Version != JSONVersion || h.Command != command {
		t.Fatalf("%s --json printed %q (%v)", command, out, err)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatal(err)
	}
}

// #59: spend, balance, jobs, info and models print one JSON document a
// script can read, through a new-api gateway at ×0.5: the amounts with
// their currency, the balance's state and source, the rate's source.
func TestTheMoneyAndListCommandsPrintJSON(t *testing.T) {
	const key = "sk-json-0123456789"
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		key: {Name: "half", Models: []string{"gpt-image-1"}, Ratio: 0.5, Limit: 5_000_000},
	}})
	env, out, errOut := gatewayEnv(t, srv, key, "half")
	dir := t.TempDir()
	if code := run(t, env, "", "gen", "--prompt", "a fox", "--quality", "low", "--size", "1024x1024", "--out", dir); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	out.Reset()
	if code := run(t, env, "", "spend", "--by", "model", "--json"); code != 0 {
		t.Fatalf("spend: %s", errOut)
	}
	var sp spendDoc
	decodeDoc(t, "spend", out.String(), &sp)
	if len(sp.Totals) != 1 || sp.Totals[0].Label != "gpt-image-1" || sp.Totals[0].Requests != 1 || sp.Totals[0].Amount <= 0 ||
		len(sp.Total) != 1 || sp.Total[0].Currency != "USD" {
		t.Errorf("spend: %+v", sp)
	}
	out.Reset()
	if code := run(t, env, "", "balance", "--json"); code != 0 {
		t.Fatalf("balance: %s", errOut)
	}
	var b balanceDoc
	decodeDoc(t, "balance", out.String(), &b)
	if b.State != "amount" || b.Left == nil || b.Left.Amount <= 0 || b.Source != "key-usage" || b.Checked == nil ||
		b.Rate.Value != 0.5 || b.Rate.Source != "gateway" || b.Today.Amount != sp.Total[0].Amount {
		t.Errorf("balance: %+v", b)
	}
	out.Reset()
	if code := run(t, env, "", "models", "--json"); code != 0 {
		t.Fatalf("models: %s", errOut)
	}
	var m modelsDoc
	decodeDoc(t, "models", out.String(), &m)
	if len(m.Models) == 0 || m.Models[0].ID == "" {
		t.Errorf("models: %+v", m)
	}
	out.Reset()
	if code := run(t, env, "", "jobs", "--json"); code != 0 {
		t.Fatalf("jobs: %s", errOut)
	}
	var j jobsDoc
	decodeDoc(t, "jobs", out.String(), &j)
	if j.Jobs == nil || len(j.Jobs) != 0 {
		t.Errorf("jobs: %+v", j)
	}
}

// info --json describes each file, a broken one with its error, and
// still the files after it; the exit status says one failed.
func TestInfoJSONDescribesEveryFile(t *testing.T) {
	env, out, _ := testEnv(t, "http://127.0.0.1:1/v1")
	dir := t.TempDir()
	good, broken := filepath.Join(dir, "good.png"), filepath.Join(dir, "broken.png")
	if err := os.WriteFile(good, fixture.SolidPNG(t, 64, 64, color.Transparent), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("\\x89PNG not really"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"info", "--json", broken, good}, env); code != 1 {
		t.Errorf("exit %d, want 1 for the broken file", code)
	}
	var doc infoDoc
	decodeDoc(t, "info", out.String(), &doc)
	if len(doc.Files) != 2 || doc.Files[0].Error == "" || doc.Files[1].Format != "PNG" || doc.Files[1].Width == 0 ||
		!strings.HasPrefix(doc.Files[1].Colours, "Colours:") || !strings.HasPrefix(doc.Files[1].Credentials, "Content Credentials") {
		t.Errorf("%+v", doc)
	}
}

// easel info --log says where the log is, for a person asked to send it.
func TestInfoSaysWhereTheLogIs(t *testing.T) {
	env, out, _ := testEnv(t, "http://127.0.0.1:1/v1")
	env.Library = t.TempDir()
	if code := Run([]string{"info", "--log"}, env); code != 0 || strings.TrimSpace(out.String()) != filepath.Join(env.Library, "logs", "easel.log") {
		t.Errorf("exit %d: %q", code, out)
	}
}
