package ui

import (
	"context"
	"math"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/library"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
)

// Through new-api with two keys of one profile: the status bar says the
// default group's key is unlimited (never the gateway's $100,000,000) and
// shows the vip key's own balance; a job on the vip key is written at the
// vip group's ratio, what the gateway billed; Settings lists each key
// with its rate and where it came from; the spend view sets the
// gateway's figure beside Easel's.
func TestTheWindowShowsWhatTheGatewayBills(t *testing.T) {
	const defaultKey, vipKey = "sk-ui-money-default-0123456789", "sk-ui-money-vip-0123456789"
	models := []string{"gpt-image-1", "gpt-image-1-mini", "gpt-4o-mini"}
	srv := demoservice.New(demoservice.Config{Console: demoservice.ConsoleNewAPI, Groups: map[string]demoservice.Group{
		defaultKey: {Name: "default", Models: models},
		vipKey:     {Name: "vip", Models: models, Ratio: 0.5, Limit: 200000},
	}})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	path := filepath.Join(t.TempDir(), "profiles.json")
	p := config.Profile{ID: "p-money", Name: "Gateway", BaseURL: ts.URL + "/v1", Group: "default", Groups: []string{"vip"}, ImageModel: "gpt-image-1"}
	if _, err := config.Open(path).Update(func(f *config.File) error { f.Active = p.ID; return f.Put(p) }); err != nil {
		t.Fatal(err)
	}
	keys := secrets.New(secretstest.NewMemory(), 0)
	_ = keys.Set(context.Background(), p.KeyAccount("default"), defaultKey)
	_ = keys.Set(context.Background(), p.KeyAccount("vip"), vipKey)
	ea := newApp(t, test.NewTempApp(t), isolated(t, Options{ConfigPath: path, Keys: keys}))
	t.Cleanup(ea.win.Close)
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	sixFigures := regexp.MustCompile(`\d{3},\d{3}|\d{6}`)
	waitFor(t, ea, "the unlimited key in the status bar", func() bool {
		return strings.Contains(ea.status.bar.Spend.Text, "Unlimited key")
	})
	if s := ea.status.bar.Spend.Text; sixFigures.MatchString(s) {
		t.Errorf("the status bar shows %q", s)
	}
	onUI(ea, func() { ea.session.UseGroup("vip") })
	waitFor(t, ea, "the vip key's own balance", func() bool {
		return strings.Contains(ea.status.bar.Spend.Text, "Balance $0.40")
	})

	onUI(ea, func() {
		form := ea.generate.Options()
		form.Model.Entry.SetText("gpt-image-1")
		o := form.Options()
		o.N, o.Quality, o.Size = 1, "low", "1024x1024"
		form.SetOptions(o)
		ea.generate.Prompt().SetText("a lighthouse at half the rate")
		test.Tap(ea.generate.Button())
	})
	waitImages(t, ea, "half the rate", 1)
	billed := float64(srv.BilledQuota(vipKey)) / demoservice.QuotaPerUnit
	var entries []library.Entry
	waitFor(t, ea, "the ledger entry", func() bool {
		entries, _ = ea.lib.Ledger().Entries(context.Background(), time.Time{})
		return len(entries) == 1
	})
	if e := entries[0]; e.Group != "vip" || e.Source != library.SourceGateway || e.Cost == nil || math.Abs(*e.Cost-billed) > 1.0/demoservice.QuotaPerUnit {
		t.Errorf("the entry %+v, the gateway billed $%.6f", e, billed)
	}

	onUI(ea, ea.showSettings)
	waitFor(t, ea, "each key's rate and source", func() bool {
		_, own := ea.settings.Form.Prices.Key("default")
		_, vip := ea.settings.Form.Prices.Key("vip")
		return strings.Contains(own, "Pays ×1 (from the gateway's /api/pricing). Unlimited key") &&
			strings.Contains(vip, "Pays ×0.5 (from the gateway's /api/pricing).") && strings.Contains(vip, "left, from the gateway's own figure for this key")
	})

	loaded := make(chan struct{}, 4)
	onUI(ea, func() {
		ea.status.bar.Spend.OnTapped()
		ea.status.view.Loaded = func() { loaded <- struct{}{} }
	})
	<-loaded
	waitFor(t, ea, "the gateway's figure beside Easel's", func() bool {
		g := ea.status.view.Gateway()
		return strings.Contains(g, `Key of group "vip" — Easel's ledger:`) && strings.Contains(g, "They agree.")
	})
	// The row says the gateway's figure settled its request.
	var rows [][]string
	onUI(ea, func() { rows = ea.status.view.Rows() })
	if len(rows) != 1 || rows[0][5] != "1 of 1" {
		t.Errorf("rows %v", rows)
	}
}
