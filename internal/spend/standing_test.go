package spend

import (
	"math"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/gateway"
	"easel/internal/library"
	"easel/internal/pricing"
)

// A balance is true or absent: a key without a limit of its own is
// unlimited, never $100,000,000; figures no account has are flagged; an
// amount is in the unit the gateway shows, converted at its rate.
func TestAStandingIsTrueOrAbsent(t *testing.T) {
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	usd := config.Profile{ID: "p"}
	newAPI := gateway.Facts{Kind: gateway.NewAPI, Status: &api.GatewayStatus{QuotaPerUnit: 500000, DisplayType: "USD"}}
	cny := gateway.Facts{Kind: gateway.NewAPI, Status: &api.GatewayStatus{QuotaPerUnit: 500000, DisplayType: "CNY", ExchangeRate: 7}}
	billing := func(credit, used float64) library.Balance {
		return library.Balance{Reported: true, Credit: credit, Used: used, Checked: at}
	}
	cases := []struct {
		name  string
		s     Standing
		state State
		left  string
	}{
		{"the gateways' unlimited key", billingStanding(billing(100000000, 0), true, gateway.Facts{}, usd), Unlimited, ""},
		{"an account with money", billingStanding(billing(25, 3.5), true, gateway.Facts{}, usd), Amount, "$21.50"},
		{"more used than granted (one-api's double count)", billingStanding(billing(5, 9), true, gateway.Facts{}, usd), Impossible, ""},
		{"not a number", billingStanding(billing(math.NaN(), 0), true, gateway.Facts{}, usd), Impossible, ""},
		{"endless", billingStanding(billing(math.Inf(1), 0), true, gateway.Facts{}, usd), Impossible, ""},
		{"negative", billingStanding(billing(-1e9, 0), true, gateway.Facts{}, usd), Impossible, ""},
		{"a gateway that shows yuan", billingStanding(billing(10, 0), true, cny, usd), Amount, "¥70.00"},
		{"a key's own limit", keyStanding(withUsage(newAPI, api.TokenUsage{Granted: 200000, Used: 50000, Available: 150000}), usd), Amount, "$0.30"},
		{"a key marked unlimited", keyStanding(withUsage(newAPI, api.TokenUsage{Used: 50000, Available: -50000, Unlimited: true}), usd), Unlimited, ""},
		{"a key whose figures do not add up", keyStanding(withUsage(newAPI, api.TokenUsage{Granted: 100, Used: 500, Available: 1000}), usd), Impossible, ""},
		{"a key its last request overdrew", keyStanding(withUsage(newAPI, api.TokenUsage{Granted: 3000, Used: 5450, Available: -2450}), usd), Amount, "$0.00"},
		{"a key in quota units", keyStanding(withUsage(newAPI, api.TokenUsage{Granted: 1234567, Available: 1234567}), config.Profile{Prices: pricing.Table{Currency: pricing.Quota}}), Amount, "1,234,567 quota"},
		{"never asked", billingStanding(library.Balance{}, false, gateway.Facts{}, usd), NoBalance, ""},
	}
	for _, c := range cases {
		if c.s.State != c.state || c.state == Amount && c.s.Left.String() != c.left {
			t.Errorf("%s: %+v (%s), want state %v %s", c.name, c.s, c.s.Left, c.state, c.left)
		}
		if c.state != Amount && (c.s.String() != "" && c.s.Left.Amount != 0) {
			t.Errorf("%s shows an amount: %q", c.name, c.s)
		}
	}
	if s := (Standing{State: Unlimited}).String(); s != "Unlimited key" {
		t.Errorf("the status bar says %q", s)
	}
}

func withUsage(f gateway.Facts, u api.TokenUsage) gateway.Facts {
	f.Usage = &u
	return f
}

// Amounts read with thousands separators.
func TestMoneyHasThousandsSeparators(t *testing.T) {
	for v, want := range map[float64]string{1234567.891: "$1,234,567.89", 999.5: "$999.50", -2500: "$-2,500.00", 0.004: "$0.004"} {
		if got := pricing.Dollars(v); got != want {
			t.Errorf("%v: %q, want %q", v, got, want)
		}
	}
}

// No number a service sends reaches a label as more than a line: an
// amount beyond any bill, or not a number, reads as impossible.
func TestImpossibleAmountsAreNotWrittenOut(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e308, -1e15, 1e300} {
		for _, cur := range []string{pricing.USD, pricing.CNY, pricing.Quota} {
			if s := (pricing.Money{Amount: v, Currency: cur}).String(); s != "an impossible amount" {
				t.Errorf("%v %s: %q", v, cur, s)
			}
		}
	}
}

// The status bar marks a day's spend past its cap.
func TestTheStatusBarMarksASpendOverTheCap(t *testing.T) {
	usd := func(v float64) pricing.Money { return pricing.Money{Amount: v, Currency: pricing.USD} }
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{Today: usd(1.5), DailyCap: 2, Currency: pricing.USD}, "Today $1.50 of $2.00"},
		{Summary{Today: usd(2.5), DailyCap: 2, Currency: pricing.USD}, "Today $2.50, over the cap of $2.00"},
		{Summary{Today: usd(2.5), Currency: pricing.USD, Balance: Standing{State: Unlimited}}, "Today $2.50 · Unlimited key"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// A gateway whose figures do not add up is quoted, not believed (#53):
// quota_per_unit 1 would read a $7.50 key as $3,750,000; the status bar
// says the balance does not add up and `easel balance` says what the
// gateway reported and why it is not used.
func TestABalanceThatDoesNotAddUpIsQuotedNotShown(t *testing.T) {
	usd := config.Profile{ID: "p"}
	unitOfOne := gateway.Facts{Kind: gateway.OneAPI, Status: &api.GatewayStatus{QuotaPerUnit: 1, DisplayType: "USD"},
		Usage: &api.TokenUsage{Granted: 3750000 + 2000, Used: 2000, Available: 3750000}}
	hoard := gateway.Facts{Kind: gateway.NewAPI, Status: &api.GatewayStatus{QuotaPerUnit: 500000, DisplayType: "USD"},
		Usage: &api.TokenUsage{Granted: 5e12 + 100, Used: 100, Available: 5e12}}
	for _, c := range []struct {
		name string
		f    gateway.Facts
		want string
	}{
		{"a unit of 1", unitOfOne, "The gateway reports 1 quota units to the dollar, which does not add up"},
		{"ten million dollars against a cent used", hoard, "The gateway reports $10,000,000.00 left, which does not add up"},
	} {
		s := keyStanding(c.f.Audit(), usd)
		if s.State != Doubtful || s.Left.Amount != 0 || s.String() != "Balance does not add up" {
			t.Errorf("%s: %+v %q", c.name, s, s)
		}
		if got := s.Explain(); !strings.Contains(got, c.want) || !strings.Contains(got, "So no balance is shown") {
			t.Errorf("%s: %q", c.name, got)
		}
	}
	// the same key before the audit was believed
	if s := keyStanding(unitOfOne, usd); s.State != Amount || s.Left.String() != "$3,750,000.00" {
		t.Errorf("unaudited: %+v", s)
	}
}

// A group whose ratio is 0 is priced at list prices, and says why.
func TestAGroupRatioOfZeroIsNotTheKeysRate(t *testing.T) {
	f := gateway.Facts{Kind: gateway.NewAPI, Status: &api.GatewayStatus{QuotaPerUnit: 500000},
		Pricing: &api.GatewayPricing{GroupRatio: map[string]float64{"default": 1, "relay": 0}}}.Audit()
	rate, from := KeyRate(config.Profile{}, "relay", f)
	if rate != 1 || from != RateDoubted || !strings.Contains(RateSourceText(from), "does not add up") {
		t.Fatalf("×%v from %s (%s)", rate, from, RateSourceText(from))
	}
	if rate, from := KeyRate(config.Profile{}, "default", f); rate != 1 || from != RateFromGateway {
		t.Fatalf("the default group, declared: ×%v from %s", rate, from)
	}
	// #54: a key whose group nobody declared is not the default group's
	if rate, from := KeyRate(config.Profile{}, "", f); rate != 1 || from != RateUnknownGroup || RateSourceText(from) != "group unknown: list price ×1 assumed" {
		t.Fatalf("an undeclared group: ×%v from %s", rate, from)
	}
}
