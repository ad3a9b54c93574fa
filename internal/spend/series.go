package spend

import (
	"encoding/csv"
	"io"
	"sort"
	"strconv"
	"time"

	"easel/internal/library"
)

// Bar is one period of the spend chart: its first day and what each
// group spent in it, largest group first.
type Bar struct {
	Period time.Time
	Parts  []Part
}

// Part is one group's share of a bar.
type Part struct {
	Group     string
	Amount    float64
	Estimated float64
	Requests  int
	Images    int
	// Settled is how many of Requests the gateway's figure settled.
	Settled int
}

// Range is the first day of the earliest period a spend view of period
// shows up to now: 30 days, 12 weeks or 12 months.
func Range(period string, now time.Time) time.Time {
	y, m, d := now.Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	switch period {
	case library.ByWeek:
		monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
		return monday.AddDate(0, 0, -7*11)
	case library.ByMonth:
		return time.Date(y, m, 1, 0, 0, 0, 0, now.Location()).AddDate(0, -11, 0)
	}
	return today.AddDate(0, 0, -29)
}

// next is the first day of the period after start.
func next(period string, start time.Time) time.Time {
	switch period {
	case library.ByWeek:
		return start.AddDate(0, 0, 7)
	case library.ByMonth:
		return start.AddDate(0, 1, 0)
	}
	return start.AddDate(0, 0, 1)
}

// Series lays totals (by period and group, in one currency) out as one
// bar per period from since to now, empty periods included, so the chart
// reads as time passing; each bar's groups largest first.
func Series(totals []library.Total, period, currency string, since, now time.Time) []Bar {
	byDay := map[string][]Part{}
	for _, t := range totals {
		if t.Currency != currency {
			continue
		}
		byDay[t.Period] = append(byDay[t.Period], Part{Group: t.Group, Amount: t.Amount, Estimated: t.Estimated, Requests: t.Requests, Images: t.Images, Settled: t.Settled})
	}
	var bars []Bar
	for start := since; !start.After(now); start = next(period, start) {
		parts := byDay[start.Format("2006-01-02")]
		sort.SliceStable(parts, func(i, j int) bool { return parts[i].Amount > parts[j].Amount })
		bars = append(bars, Bar{Period: start, Parts: parts})
	}
	return bars
}

// Groups are the groups that appear in bars, the largest overall first:
// the chart gives each its colour in this order, and the legend lists
// them so.
func Groups(bars []Bar) []string {
	sum := map[string]float64{}
	for _, b := range bars {
		for _, p := range b.Parts {
			sum[p.Group] += p.Amount
		}
	}
	out := make([]string, 0, len(sum))
	for g := range sum {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if sum[out[i]] != sum[out[j]] {
			return sum[out[i]] > sum[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// Currencies are the currencies totals are in, most spent first: a view
// shows one at a time.
func Currencies(totals []library.Total) []string {
	sum := map[string]float64{}
	for _, t := range totals {
		sum[t.Currency] += t.Amount
	}
	out := make([]string, 0, len(sum))
	for c := range sum {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return sum[out[i]] > sum[out[j]] || sum[out[i]] == sum[out[j]] && out[i] < out[j] })
	return out
}

// WriteCSV writes entries one per line, for a spreadsheet: when, which
// profile (by name where names has it), model, kind, outcome, images,
// tokens as reported, the estimate, the cost from usage, and what the
// entry counts for.
func WriteCSV(w io.Writer, entries []library.Entry, names map[string]string) error {
	c := csv.NewWriter(w)
	_ = c.Write([]string{"time", "profile", "model", "kind", "outcome", "images", "input_tokens", "output_tokens",
		"estimate_low", "estimate_high", "cost", "counted", "counted_is_estimate", "currency", "corrected", "correction"})
	num := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'f', 6, 64)
	}
	for _, e := range entries {
		profile := e.Profile
		if n, ok := names[profile]; ok {
			profile = n
		}
		in, out := "", ""
		if e.Usage != nil {
			in, out = strconv.FormatInt(e.Usage.InputTokens, 10), strconv.FormatInt(e.Usage.OutputTokens, 10)
		}
		counted, estimated := e.Spent()
		_ = c.Write([]string{e.At.Format(time.RFC3339), profile, e.Model, e.Kind, e.Outcome, strconv.Itoa(e.Images), in, out,
			num(e.EstimateLow), num(e.EstimateHigh), num(e.Cost), strconv.FormatFloat(counted, 'f', 6, 64), strconv.FormatBool(estimated), e.Currency,
			num(e.Corrected), e.Correction})
	}
	c.Flush()
	return c.Error()
}
