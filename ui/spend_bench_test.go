package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/testsupport/benchfloor"
	"easel/ui/dialogs"
)

// fillLedger writes n entries over the last 400 days, six models, three
// profiles and the three kinds, as a year of heavy use leaves them.
func fillLedger(b *testing.B, lib *library.Library, n int) {
	models := []string{"gpt-image-1", "gpt-image-1-mini", "gpt-image-1.5", "dall-e-3", "gpt-4.1", "gpt-4o-mini"}
	kinds := []string{library.SpendGenerate, library.SpendEdit, library.SpendChat}
	now := time.Now()
	entries := make([]library.Entry, n)
	for i := range entries {
		cost := 0.01 + float64(i%40)/100
		entries[i] = library.Entry{At: now.Add(-time.Duration(float64(i) / float64(n) * 400 * 24 * float64(time.Hour))), Profile: fmt.Sprint("p-", i%3),
			Model: models[i%len(models)], Kind: kinds[i%len(kinds)], Outcome: library.Billed, Images: 1 + i%4, Cost: &cost,
			Usage: &api.Usage{InputTokens: 40, OutputTokens: 4160}, Currency: pricing.USD}
	}
	if err := lib.Ledger().RecordAll(context.Background(), entries); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSpendView100k opens the spend view over 100,000 ledger
// entries: the sums are read off the UI goroutine (query-ms), and the
// view is built from them on it (ui-ms, goal ≤ 100 ms), for each period.
func BenchmarkSpendView100k(b *testing.B) {
	ea := newApp(b, test.NewTempApp(b), isolated(b, Options{Demo: true}))
	defer ea.win.Close()
	lib := ea.lib
	fillLedger(b, lib, 100000)
	for _, period := range []string{library.ByDay, library.ByWeek, library.ByMonth} {
		var query, ui []float64
		b.Run(period, func(b *testing.B) {
			for range b.N {
				v := dialogs.NewSpendView(ea.host)
				v.SetPeriod(period)
				start := time.Now()
				totals, err := lib.Ledger().Spend(context.Background(), v.Query(time.Now()))
				if err != nil {
					b.Fatal(err)
				}
				query = append(query, float64(time.Since(start).Microseconds())/1000)
				onUI(ea, func() {
					start := time.Now()
					ea.win.SetContent(v.Content())
					v.Show(totals)
					ui = append(ui, float64(time.Since(start).Microseconds())/1000)
				})
				if len(v.Rows()) == 0 {
					b.Fatal("the view shows nothing")
				}
			}
			b.ReportMetric(benchfloor.Median(query), "query-ms")
			b.ReportMetric(benchfloor.Median(ui), "ui-ms")
		})
	}
}
