package gateway

import (
	"sort"

	"easel/internal/pricing"
)

// Each figure a gateway reports is ranged where it is parsed (api). A
// figure can be in range and still be wrong: a quota_per_unit of 1 reads
// a $1 key as $500,000; a group ratio of 0 makes every picture free. The
// audit weighs the figures against each other and against list prices,
// and a figure that does not add up is kept as a Doubt, to be shown as
// "the gateway reports …, which does not add up", and is not used: what
// it would have priced is priced at list prices, with that said.

// Doubt is one figure the gateway reported that does not add up.
type Doubt struct {
	What     string  `json:"what"`
	Group    string  `json:"group,omitempty"`
	Reported float64 `json:"reported"`
}

// What a doubt is about. The values are stored: never renamed.
const (
	DoubtUnit     = "unit"     // quota_per_unit against list prices
	DoubtExchange = "exchange" // the yuan-per-dollar rate
	DoubtGroup    = "group"    // a group's ratio
	DoubtRate     = "rate"     // sub2api's rate for the key
	DoubtBalance  = "balance"  // what the key has left against what it used
)

// The bounds of the audit. A gateway marks prices up or down by groups
// and its own ratios, rarely by more than tenfold; fifty either way is
// far past any reseller's margin and well short of a unit's mistake
// (500,000).
const (
	unitSlack = 50
	// sane quota units to the dollar when there are no prices to weigh
	// them against: new-api and one-api default to 500,000.
	minPerUnit, maxPerUnit = 1e3, 1e8
	// yuan to the dollar: resellers sell at 1:1 up to the bank rate
	// (~7); nobody at fifty.
	minExchange, maxExchange = 0.5, 50
	// a group's or a key's ratio: free groups are not sold; a ratio past
	// 100 is a typo for a price.
	minRatio, maxRatio = 0.001, 100
	// a key holding a million times what it has ever used, past this
	// many dollars, is a unit's mistake, not a deposit.
	balanceRatio, balanceFloor = 1e6, 1e4
)

// Audit is f with the figures that do not add up taken out of use and
// kept in Doubts. It is done afresh whenever figures are read, and on
// facts kept from before there was an audit.
func (f Facts) Audit() Facts {
	f.Doubts = nil
	if f.Status != nil && !f.unitAddsUp() {
		f.Doubts = append(f.Doubts, Doubt{What: DoubtUnit, Reported: f.Status.QuotaPerUnit})
	}
	if st := f.Status; st != nil && st.DisplayType == "CNY" && st.ExchangeRate != 0 && !within(st.ExchangeRate, minExchange, maxExchange) {
		f.Doubts = append(f.Doubts, Doubt{What: DoubtExchange, Reported: st.ExchangeRate})
	}
	f.Doubts = append(f.Doubts, f.groupDoubts()...)
	if f.Kind == Sub2API && f.Rate != 0 && !ratioSane(f.Rate) {
		f.Doubts = append(f.Doubts, Doubt{What: DoubtRate, Reported: f.Rate})
	}
	if u := f.Usage; u != nil && !u.Unlimited && !f.Doubted(DoubtUnit, "") {
		if left := u.Available / f.QuotaPerUnit(); left > balanceFloor && left > balanceRatio*(u.Used/f.QuotaPerUnit()) {
			f.Doubts = append(f.Doubts, Doubt{What: DoubtBalance, Reported: left})
		}
	}
	return f
}

// groupDoubts are the groups whose published ratio is not sane, in
// name order.
func (f Facts) groupDoubts() []Doubt {
	if f.Pricing == nil {
		return nil
	}
	groups := make([]string, 0, len(f.Pricing.GroupRatio))
	for g := range f.Pricing.GroupRatio {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var out []Doubt
	for _, g := range groups {
		if r := f.Pricing.GroupRatio[g]; !ratioSane(r) {
			out = append(out, Doubt{What: DoubtGroup, Group: g, Reported: r})
		}
	}
	return out
}

func ratioSane(r float64) bool { return within(r, minRatio, maxRatio) }

func within(v, lo, hi float64) bool { return v >= lo && v <= hi }

// unitAddsUp weighs quota_per_unit against list prices: each model the
// gateway prices by tokens and Easel knows a list price for implies a
// dollar price per million tokens; their median must be within
// unitSlack of list. With no such model, the unit is weighed against
// the range gateways use.
func (f Facts) unitAddsUp() bool {
	qpu := f.Status.QuotaPerUnit
	if qpu <= 0 {
		return true // not reported: the default is used
	}
	var ratios []float64
	if f.Pricing != nil {
		for id, mp := range f.Pricing.Models {
			list, ok := pricing.Lookup(id)
			if mp.PerCall || mp.ModelRatio <= 0 || !ok || list.TextIn <= 0 {
				continue
			}
			// new-api: ModelRatio quota units a token; a million tokens
			// is ModelRatio × 1e6 / qpu dollars.
			ratios = append(ratios, mp.ModelRatio*1e6/qpu/list.TextIn)
		}
	}
	if len(ratios) == 0 {
		return within(qpu, minPerUnit, maxPerUnit)
	}
	sort.Float64s(ratios)
	return within(ratios[len(ratios)/2], 1.0/unitSlack, unitSlack) // false for NaN
}

// Doubted reports whether the figure what (for group, for a group's
// ratio) does not add up.
func (f Facts) Doubted(what, group string) bool {
	_, ok := f.DoubtOf(what, group)
	return ok
}

// RatioDoubted reports whether the ratio the gateway gives a key of
// group does not add up: its group's published ratio, or sub2api's rate
// for the key.
func (f Facts) RatioDoubted(group string) bool {
	return f.Doubted(DoubtGroup, group) || f.Kind == Sub2API && f.Doubted(DoubtRate, "")
}

// DoubtOf is the doubt about what (for group), if any.
func (f Facts) DoubtOf(what, group string) (Doubt, bool) {
	for _, d := range f.Doubts {
		if d.What == what && (what != DoubtGroup || d.Group == groupName(group)) {
			return d, true
		}
	}
	return Doubt{}, false
}

func groupName(g string) string {
	if g == "" {
		return "default"
	}
	return g
}
