package spend

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/gateway"
	"easel/internal/library"
	"easel/internal/pricing"
)

func openLib(t *testing.T) *library.Library {
	t.Helper()
	lib, err := library.Open(filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return lib
}

// The budget judges what was spent today and this month plus the top of
// the estimate, in the profile's currency; an unpriced request cannot be
// counted and is let through.
func TestTheBudgetCountsTodayAndTheMonth(t *testing.T) {
	lib := openLib(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.Local)
	led := Ledger{Books: lib.Ledger()}
	for _, at := range []time.Time{now.Add(-time.Hour), now.AddDate(0, 0, -3), now.AddDate(0, -1, 0)} {
		c := 1.0
		if _, err := lib.Ledger().Record(ctx, library.Entry{At: at, Profile: "p", Model: "m", Kind: library.SpendChat, Outcome: library.Billed, Cost: &c, Currency: pricing.CNY}); err != nil {
			t.Fatal(err)
		}
	}
	est := pricing.Estimate{Low: 0.5, High: 0.5, Priced: true, Currency: pricing.CNY}
	p := config.Profile{ID: "p", Prices: pricing.Table{Currency: pricing.CNY}}
	for _, tc := range []struct {
		budget config.Budget
		over   bool
		period string
	}{
		{config.Budget{}, false, ""},
		{config.Budget{Daily: 1.5}, false, ""},
		{config.Budget{Daily: 1.4}, true, "today"},
		{config.Budget{Monthly: 2.5}, false, ""},
		{config.Budget{Daily: 5, Monthly: 2.4}, true, "this month"},
	} {
		p.Budget = tc.budget
		v, err := led.Check(ctx, p, est, now)
		if err != nil || v.Over != tc.over || v.Period != tc.period {
			t.Errorf("%+v: %+v %v", tc.budget, v, err)
		}
	}
	p.Budget = config.Budget{Daily: 1.4}
	v, _ := led.Check(ctx, p, est, now)
	if v.String() != "This would take today's spend from ¥1.00 to ¥1.50, over the daily cap of ¥1.40." {
		t.Errorf("the question: %q", v)
	}
	if v, _ := led.Check(ctx, p, pricing.Estimate{Model: "x"}, now); v.Over || !v.Unpriced {
		t.Errorf("unpriced: %+v", v)
	}
}

// An image answer is written at the profile's prices from its usage;
// one without usage counts its estimate, marked as such.
func TestImageRequestsAreWrittenAtTheProfilesPrices(t *testing.T) {
	lib := openLib(t)
	ctx := context.Background()
	led := Ledger{Books: lib.Ledger()}
	gen := &api.GenerateRequest{Prompt: "abcd", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low", N: 2}}
	res := &api.ImageResult{Images: make([]api.Image, 2), Usage: &api.Usage{InputTokens: 2, TextTokens: 2, OutputTokens: 544}}
	c, err := led.Image(ctx, Charge{Prices: pricing.Table{Currency: pricing.Quota}, Profile: "p", Job: "job-1", Generate: gen, Result: res, Outcome: library.Billed, Verdict: gateway.Billed})
	want := (2*5 + 544*40) / 1e6 * 500000
	if err != nil || c.Estimated || c.Amount.Currency != pricing.Quota || c.Amount.Amount < want-1e-6 || c.Amount.Amount > want+1e-6 {
		t.Errorf("charged %+v %v, want %v quota", c, err, want)
	}
	c, _ = led.Image(ctx, Charge{Prices: pricing.Table{}, Profile: "p", Job: "job-2", Generate: gen, Outcome: library.Failed, Verdict: gateway.MayBeBilled})
	if !c.Estimated || c.String() != "≈ $0.02 (estimated: the service reported no usage)" {
		t.Errorf("failed after it began: %+v %q", c, c)
	}
	entries, _ := lib.Ledger().Entries(ctx, time.Time{})
	if len(entries) != 2 || entries[1].Outcome != library.Failed || entries[1].Cost != nil || entries[1].EstimateHigh == nil || entries[1].Billing != library.MaybeBilled {
		t.Errorf("entries %+v", entries)
	}
}

type noBalance struct {
	asked int
	gateway.Reader
}

func (n *noBalance) Balance(context.Context) (api.Balance, error) {
	n.asked++
	return api.Balance{}, api.ErrNoBalance
}

// A service with billing endpoints gives a balance that falls as it is
// used; one without is remembered and not asked again.
func TestABalanceIsAskedOnlyOfServicesThatReportIt(t *testing.T) {
	lib := openLib(t)
	ctx := context.Background()
	srv := demoservice.New(demoservice.Config{Credit: 5})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "k"})
	p := config.Profile{ID: "p"}
	b, err := Balance(ctx, lib.Ledger(), p, client, time.Now())
	if err != nil || b.State != Amount || b.Left.Amount != 5 || b.Source != SourceBilling {
		t.Fatalf("balance %+v %v", b, err)
	}
	if _, err := client.Generate(ctx, api.GenerateRequest{Prompt: "x", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high"}}, nil); err != nil {
		t.Fatal(err)
	}
	b, _ = Balance(ctx, lib.Ledger(), p, client, time.Now())
	if b.Left.Amount >= 5-0.16 {
		t.Errorf("the balance did not fall: %+v", b)
	}
	none := &noBalance{Reader: client}
	q := config.Profile{ID: "q"}
	for range 3 {
		if b, err := Balance(ctx, lib.Ledger(), q, none, time.Now()); b.State != NoBalance || err != nil {
			t.Errorf("no balance: %+v %v", b, err)
		}
	}
	if none.asked != 1 {
		t.Errorf("a service without a balance was asked %d times", none.asked)
	}
	if err := lib.Ledger().ForgetBalance(ctx, "q"); err != nil {
		t.Fatal(err)
	}
	_, _ = Balance(ctx, lib.Ledger(), q, none, time.Now())
	if none.asked != 2 {
		t.Error("after Forget it is asked again")
	}
}

// The chart's series has a bar for every period in range, empty ones
// included, each bar's groups largest first, in one currency.
func TestSeriesFillsEveryPeriod(t *testing.T) {
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.Local) // a Tuesday
	if got := Range(library.ByDay, now); got.Format("2006-01-02") != "2026-10-26" {
		t.Errorf("30 days from %s", got)
	}
	if got := Range(library.ByWeek, now); got.Format("2006-01-02") != "2026-09-07" || got.Weekday() != time.Monday {
		t.Errorf("12 weeks from %s", got)
	}
	if got := Range(library.ByMonth, now); got.Format("2006-01-02") != "2025-12-01" {
		t.Errorf("12 months from %s", got)
	}
	totals := []library.Total{
		{Period: "2026-11-23", Group: "gpt-4o", Currency: "USD", Amount: 0.1},
		{Period: "2026-11-23", Group: "gpt-image-1", Currency: "USD", Amount: 0.5},
		{Period: "2026-11-23", Group: "gpt-image-1", Currency: "CNY", Amount: 9},
		{Period: "2026-11-24", Group: "gpt-4o", Currency: "USD", Amount: 0.2},
	}
	bars := Series(totals, library.ByDay, "USD", Range(library.ByDay, now), now)
	if len(bars) != 30 || bars[28].Total() != 0.6 || bars[28].Parts[0].Group != "gpt-image-1" || bars[29].Total() != 0.2 || bars[0].Total() != 0 {
		t.Errorf("bars: %d, %+v %+v", len(bars), bars[28], bars[29])
	}
	if g := Groups(bars); len(g) != 2 || g[0] != "gpt-image-1" {
		t.Errorf("groups %v", g)
	}
	if c := Currencies(totals); len(c) != 2 || c[0] != "CNY" {
		t.Errorf("currencies %v", c)
	}
	var buf strings.Builder
	cost := 0.5
	if err := WriteCSV(&buf, []library.Entry{{At: now, Profile: "p-1", Model: "gpt-image-1", Kind: "generate", Outcome: "done", Images: 2, Cost: &cost, Currency: "USD",
		Usage: &api.Usage{InputTokens: 10, OutputTokens: 20}}}, map[string]string{"p-1": "Studio"}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(buf.String()), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "Studio,gpt-image-1,generate,done,2,10,20,,,0.500000,0.500000,false,USD") {
		t.Errorf("csv %q", buf.String())
	}
}

// A request that adds under a cent is not said to take the spend "from
// $1.50 to $1.50": the words say it adds under a cent, and name the cap.
func TestAVerdictUnderACentSaysSo(t *testing.T) {
	usd := func(x float64) pricing.Money { return pricing.Money{Amount: x, Currency: "USD"} }
	for _, c := range []struct {
		v    Verdict
		want string
	}{
		{Verdict{Over: true, Period: "today", Spent: usd(1.498), After: usd(1.502), Cap: usd(1.00)},
			"This adds under a cent to today's spend of $1.50, which passes the daily cap of $1.00."},
		{Verdict{Over: true, Period: "this month", Spent: usd(20.001), After: usd(20.004), Cap: usd(20)},
			"This adds under a cent to this month's spend of $20.00, which passes the monthly cap of $20.00."},
		{Verdict{Over: true, Period: "today", Spent: usd(1.20), After: usd(1.70), Cap: usd(1.50)},
			"This would take today's spend from $1.20 to $1.70, over the daily cap of $1.50."},
	} {
		if got := c.v.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
}

// console is a new-api console whose usage reads can be refused, as
// new-api does past ~20 reads in 20 minutes (429).
type console struct{ usageErr error }

func (c *console) GatewayStatus(context.Context) (api.GatewayStatus, error) {
	return api.GatewayStatus{QuotaPerUnit: 500000, DisplayType: "USD"}, nil
}

func (c *console) GatewayPricing(context.Context) (api.GatewayPricing, error) {
	return api.GatewayPricing{Models: map[string]api.ModelPricing{"gpt-image-1": {ModelRatio: 2.5}}, GroupRatio: map[string]float64{"default": 1, "relay": 0.5}}, nil
}

func (c *console) TokenUsage(context.Context) (api.TokenUsage, error) {
	if c.usageErr != nil {
		return api.TokenUsage{}, c.usageErr
	}
	return api.TokenUsage{Granted: 200000, Used: 50000, Available: 150000}, nil
}

func (c *console) Sub2APIRate(context.Context) (float64, error)  { return 0, api.ErrNotOffered }
func (c *console) Sub2APISpent(context.Context) (float64, error) { return 0, api.ErrNotOffered }

// #54: one 429 on the key's usage threw away the status and prices just
// read, so rows went back to list price ×1. The prices are kept, the
// usage read before is kept with its age.
func TestAUsageRefusalKeepsThePricesJustRead(t *testing.T) {
	lib := openLib(t)
	p := config.Profile{ID: "relay", Group: "relay"}
	c := &console{}
	now := time.Now()
	first, known := Facts(context.Background(), lib.Ledger(), p, c, now)
	if !known || first.Usage == nil {
		t.Fatalf("first read: %+v", first)
	}
	c.usageErr = &api.Error{Kind: api.KindRateLimited, Status: 429}
	later := now.Add(gateway.PricesFresh + time.Minute)
	f, known := Facts(context.Background(), lib.Ledger(), p, c, later)
	if r, ok := f.GroupRatio("relay"); !known || f.Pricing == nil || !ok || r != 0.5 || !f.Checked.Equal(later) {
		t.Errorf("after a refused usage read: %+v (ratio %v %v)", f, r, ok)
	}
	if f.Usage == nil || !f.UsageChecked.Equal(first.UsageChecked) {
		t.Errorf("the usage read before was lost or re-dated: %+v at %v", f.Usage, f.UsageChecked)
	}
	stored, _, _ := lib.Ledger().GatewayFacts(context.Background(), p.ID, p.UsingGroup())
	if stored.Pricing == nil {
		t.Error("the prices read were not kept for the next command")
	}
}
