package ui

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/cli"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/ui/kit"
	"easel/ui/room/roomtest"
)

// `easel gen --estimate` and the window's estimate agree, at a profile's
// own currency and group rate, for the same prompt and options.
func TestTheWindowAndTheCommandLineEstimateAlike(t *testing.T) {
	ea, path := newProfileAppWith(t, config.Profile{Prices: pricing.Table{Currency: pricing.CNY, PerDollar: 7.1, GroupRate: 0.6}})
	keys := secrets.New(secretstest.NewMemory(), 0)
	if err := keys.Set(context.Background(), "p-priced", "sk-estimate-test-1234"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		size, quality string
		n             int
	}{
		{"1024x1024", "high", 4}, {"1536x1024", "medium", 1}, {"1024x1536", "auto", 2},
	} {
		onUI(ea, func() {
			form := ea.generate.Options()
			form.Model.Entry.SetText("gpt-image-1")
			o := form.Options()
			o.N, o.Quality, o.Size = tc.n, tc.quality, tc.size
			form.SetOptions(o)
		})
		test.Type(ea.generate.Prompt(), "x") // the prompt's tokens count in both
		window := estimate(ea)
		var out, errOut bytes.Buffer
		env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" },
			Profiles: config.Open(path), Keys: keys}
		var prompt string
		onUI(ea, func() { prompt = ea.generate.Prompt().Text })
		args := []string{"gen", "--profile", "Priced", "--model", "gpt-image-1", "--prompt", prompt, "--size", tc.size, "--quality", tc.quality, "--n", string(rune('0' + tc.n)), "--estimate"}
		if code := cli.Run(args, env); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if got := strings.TrimSpace(out.String()); got != window || !strings.Contains(window, "¥") {
			t.Errorf("%s %s n=%d: the command line says %q, the window %q", tc.size, tc.quality, tc.n, got, window)
		}
	}
}

// A finished job's card says what it cost, the status bar what was spent
// today and the balance the service reports, and the spend view (opened
// from the status bar) lists it by model.
func TestWhatAJobCostShowsOnItsCardTheStatusBarAndTheSpendView(t *testing.T) {
	ea := newServedApp(t)
	g := ea.generate
	onUI(ea, func() {
		form := g.Options()
		form.Model.Entry.SetText("gpt-image-1")
		o := form.Options()
		o.N, o.Quality, o.Size = 2, "low", "1024x1024"
		form.SetOptions(o)
	})
	test.Type(g.Prompt(), "a lighthouse")
	typeShortcut(ea, shortcutPrimary)
	waitImages(t, ea, "lighthouse", 2) // the job, at its own pace
	waitFor(t, ea, "a card with its cost", func() bool {
		c := onlyCard(g)
		return c != nil && strings.HasPrefix(c.Status.Text, "Done") && strings.HasSuffix(c.Status.Text, "· $0.02")
	})
	waitFor(t, ea, "today's spend and the balance", func() bool {
		s := ea.status.bar.Spend.Text
		return ea.status.bar.Spend.Visible() && strings.HasPrefix(s, "Today $0.02") && strings.Contains(s, "· Balance $24.98")
	})
	loaded := make(chan struct{}, 4)
	onUI(ea, func() {
		ea.status.bar.Spend.OnTapped()
		ea.status.view.Loaded = func() { loaded <- struct{}{} }
	})
	<-loaded
	var rows [][]string
	var summary string
	onUI(ea, func() { rows, summary = ea.status.view.Rows(), ea.status.view.Summary() })
	if len(rows) != 1 || rows[0][1] != "gpt-image-1" || rows[0][2] != "$0.02" || rows[0][3] != "1" || rows[0][4] != "2" || rows[0][5] != "—" {
		t.Errorf("rows %v", rows)
	}
	if !strings.HasPrefix(summary, "$0.02 in the last 30 days · 1 request") {
		t.Errorf("summary %q", summary)
	}
	// The gallery's details say it too, with the image's share.
	items, err := ea.lib.List(context.Background(), library.Query{Limit: 1})
	if err != nil || len(items) != 1 {
		t.Fatalf("items %v %v", items, err)
	}
	onUI(ea, func() { ea.host.OpenItem(items[0].ID) })
	waitFor(t, ea, "the cost in the details", func() bool {
		return strings.Contains(ea.gallery.DetailsText(), "Cost: $0.02 for the request's 2 images, $0.01 each")
	})
}

// Prices set in Settings apply at once: the profile's currency, its group
// rate and a per-picture price of its own make the estimate, and its
// daily cap shows in the status bar.
func TestPricesSetInSettingsApplyAtOnce(t *testing.T) {
	ea, _ := newProfileAppWith(t, config.Profile{})
	onUI(ea, func() {
		ea.showSettings()
		pe := ea.settings.Form.Prices
		pe.Currency.SetSelected("Chinese yuan (¥)")
		pe.PerDollar.SetText("7")
		pe.GroupRate.SetText("0.5")
		pe.Daily.SetText("3")
		pe.Picture("gpt-image-1", "1024x1024", "medium").SetText("0.3")
		test.Tap(ea.settings.Use)
	})
	waitFor(t, ea, "the prices saved", func() bool { return ea.session.Current().Prices.Currency == pricing.CNY })
	// Read on the UI goroutine: the profile's key is still being read,
	// and connecting writes the session's profile again (-race caught
	// this read made beside it).
	var p config.Profile
	onUI(ea, func() { p = ea.session.Current() })
	if p.Prices.GroupRate != 0.5 || p.Budget.Daily != 3 || p.Prices.Models["gpt-image-1"].PerImage["1024x1024"]["medium"] != 0.3 {
		t.Fatalf("saved %+v %+v", p.Prices, p.Budget)
	}
	onUI(ea, func() {
		form := ea.generate.Options()
		form.Model.Entry.SetText("gpt-image-1")
		o := form.Options()
		o.N, o.Quality, o.Size = 2, "medium", "1024x1024"
		form.SetOptions(o)
	})
	if got := estimate(ea); got != "≈ ¥0.30 for 2 images" {
		t.Errorf("estimate %q", got)
	}
	waitFor(t, ea, "the cap in the status bar", func() bool { return strings.HasPrefix(ea.status.bar.Spend.Text, "Today ¥0.00 of ¥3.00") })
}

// The estimate beside Generate follows every option: changing the size
// or the quality alone, as a user picks them, changes it (it once kept
// the figure of the last model, count or prompt change).
func TestTheEstimateFollowsSizeAndQuality(t *testing.T) {
	ea, _ := newProfileAppWith(t, config.Profile{})
	onUI(ea, func() {
		form := ea.generate.Options()
		o := form.Options()
		o.Model, o.N, o.Size, o.Quality = "gpt-image-1", 4, "1024x1024", "low"
		form.SetOptions(o)
	})
	pick := func(item, label string) string {
		onUI(ea, func() { formSelect(t, ea.generate.Options().Form, item).SetSelected(label) })
		return estimate(ea)
	}
	low := estimate(ea)
	high := pick("Quality", "High")
	wide := pick("Size", "Landscape 1536×1024 — posters, covers")
	if low != "≈ $0.04 for 4 images" || high != "≈ $0.67 for 4 images" || wide != "≈ $0.99 for 4 images" {
		t.Errorf("low %q, high %q, wide high %q", low, high, wide)
	}
}

// formSelect is the picker of the form's row named item.
func formSelect(t *testing.T, f *widget.Form, item string) *widget.Select {
	t.Helper()
	for _, it := range f.Items {
		if it.Text != item {
			continue
		}
		var found *widget.Select
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			if s, ok := o.(*widget.Select); ok && found == nil {
				found = s
			}
			if c, ok := o.(*fyne.Container); ok {
				for _, child := range c.Objects {
					walk(child)
				}
			}
		}
		walk(it.Widget)
		if found != nil {
			return found
		}
	}
	t.Fatalf("no picker in the form's row %q", item)
	return nil
}

// A ledger row Easel marked (a usage no request could make, counted at
// its estimate) is listed in the spend view to check, with the words the
// command line's `easel spend --check` prints, and corrected from there
// to what the bill says: the spend counts the correction, the row says
// what Easel wrote, and Take back restores it.
func TestAMarkedLedgerRowIsCorrectedFromSpend(t *testing.T) {
	ea := newServedApp(t)
	var profile string
	onUI(ea, func() { profile = ea.session.Current().ID })
	high := 0.25
	id, err := ea.lib.Ledger().Record(context.Background(), library.Entry{Profile: profile, Model: "gpt-image-1", Kind: library.SpendGenerate,
		Outcome: library.Billed, Job: "job-poisoned", Images: 1, EstimateHigh: &high, Currency: "USD",
		Note: "the answer reported a usage no request could make"})
	if err != nil {
		t.Fatal(err)
	}
	loaded := make(chan struct{}, 8)
	onUI(ea, func() {
		ea.status.bar.Spend.OnTapped()
		ea.status.view.Loaded = func() { loaded <- struct{}{} }
	})
	<-loaded
	onUI(ea, func() {
		if got := ea.status.view.ToCheck(); got != "1 to check…" {
			t.Errorf("the to-check button reads %q", got)
		}
		ea.status.view.OpenToCheck()
	})
	onUI(ea, func() {
		if said := topText(ea.win); !strings.Contains(said, "no request could make") || !strings.Contains(said, "counts ≈ $0.25") {
			t.Errorf("the list says %q", said)
		}
	})
	onUI(ea, func() { tap(t, ea.win, "Correct…") })
	onUI(ea, func() {
		var entries []*kit.DialogEntry
		roomtest.Walk(ea.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if e, ok := o.(*kit.DialogEntry); ok {
				entries = append(entries, e)
			}
		})
		if len(entries) != 2 {
			t.Fatalf("%d entries in the correction form", len(entries))
		}
		entries[0].SetText("0.03")
		entries[1].SetText("the gateway's log says 0.03")
		tap(t, ea.win, "Correct")
	})
	<-loaded
	e, _, _ := ea.lib.Ledger().EntryOfJob(context.Background(), "job-poisoned")
	if e.ID != id || e.Corrected == nil || *e.Corrected != 0.03 || e.Correction != "the gateway's log says 0.03" || e.Written() != 0.25 {
		t.Fatalf("the entry after the correction: %+v", e)
	}
	waitFor(t, ea, "today's spend after the correction", func() bool { return strings.HasPrefix(ea.status.bar.Spend.Text, "Today $0.03") })
	onUI(ea, func() {
		if s := ea.status.view.Summary(); !strings.HasPrefix(s, "$0.03") {
			t.Errorf("the summary after the correction: %q", s)
		}
		ea.status.view.OpenToCheck()
	})
	onUI(ea, func() {
		if said := topText(ea.win); !strings.Contains(said, "corrected by you from $0.25: the gateway's log says 0.03") {
			t.Errorf("the list after the correction says %q", said)
		}
		tap(t, ea.win, "Take back")
	})
	<-loaded
	if e, _, _ := ea.lib.Ledger().EntryOfJob(context.Background(), "job-poisoned"); e.Corrected != nil {
		t.Errorf("taken back, yet corrected: %+v", e)
	}
}

// estimate reads the line beside Generate on the UI goroutine.
func estimate(ea *App) (s string) {
	onUI(ea, func() { s = ea.generate.Estimate() })
	return s
}
