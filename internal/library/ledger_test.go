package library

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/honesty"
	"easel/internal/testsupport/child"
)

func f64(v float64) *float64 { return &v }

// The ledger sums what was spent by period and group in local time, a
// cost where the usage priced it and the estimate where it did not, and
// says which part is estimated.
func TestLedgerSumsByPeriodAndGroup(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 23, 10, 0, 0, 0, time.Local) // a Monday
	for _, e := range []Entry{
		{At: day, Profile: "p1", Model: "gpt-image-1", Kind: SpendGenerate, Outcome: Billed, Images: 2, Cost: f64(0.08), EstimateHigh: f64(0.09), Currency: "USD"},
		{At: day.Add(time.Hour), Profile: "p1", Model: "gpt-4o", Kind: SpendChat, Outcome: Billed, Cost: f64(0.01), Currency: "USD"},
		{At: day.Add(24 * time.Hour), Profile: "p2", Model: "gpt-image-1", Kind: SpendEdit, Outcome: Failed, EstimateLow: f64(0.02), EstimateHigh: f64(0.05), Currency: "USD"},
		{At: day.Add(-24 * time.Hour), Profile: "p1", Model: "gpt-image-1", Kind: SpendGenerate, Outcome: Cancelled, Currency: "USD"}, // no price: counts 0
		{At: day, Profile: "p3", Model: "gpt-image-1", Kind: SpendGenerate, Outcome: Billed, Cost: f64(3), Currency: "CNY"},
	} {
		if _, err := l.Ledger().Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	byDay, err := l.Ledger().Spend(ctx, SpendQuery{Period: ByDay, Group: ByModel})
	if err != nil {
		t.Fatal(err)
	}
	want := []Total{
		{Period: "2026-11-22", Group: "gpt-image-1", Currency: "USD", Requests: 1},
		{Period: "2026-11-23", Group: "gpt-image-1", Currency: "CNY", Amount: 3, Requests: 1},
		{Period: "2026-11-23", Group: "gpt-image-1", Currency: "USD", Amount: 0.08, Requests: 1, Images: 2},
		{Period: "2026-11-23", Group: "gpt-4o", Currency: "USD", Amount: 0.01, Requests: 1},
		{Period: "2026-11-24", Group: "gpt-image-1", Currency: "USD", Amount: 0.05, Estimated: 0.05, Requests: 1},
	}
	if !sameTotals(byDay, want) {
		t.Errorf("by day and model:\n got %+v\nwant %+v", byDay, want)
	}
	week, _ := l.Ledger().Spend(ctx, SpendQuery{Period: ByWeek, Group: ByProfile})
	wantWeek := []Total{
		{Period: "2026-11-16", Group: "p1", Currency: "USD", Requests: 1},
		{Period: "2026-11-23", Group: "p3", Currency: "CNY", Amount: 3, Requests: 1},
		{Period: "2026-11-23", Group: "p1", Currency: "USD", Amount: 0.09, Requests: 2, Images: 2},
		{Period: "2026-11-23", Group: "p2", Currency: "USD", Amount: 0.05, Estimated: 0.05, Requests: 1},
	}
	if !sameTotals(week, wantWeek) {
		t.Errorf("by week and profile:\n got %+v\nwant %+v", week, wantWeek)
	}
	month, _ := l.Ledger().Spend(ctx, SpendQuery{Period: ByMonth, Group: ByKind, Profile: "p1"})
	if len(month) != 2 || month[0].Period != "2026-11-01" || month[0].Group != SpendGenerate || !close2(month[0].Amount, 0.08) || month[1].Group != SpendChat {
		t.Errorf("by month and kind for p1: %+v", month)
	}
	spent, _ := l.Ledger().SpentSince(ctx, "p1", "USD", day.Add(-time.Hour))
	if !close2(spent, 0.09) {
		t.Errorf("p1 spent %v today", spent)
	}
	all, _ := l.Ledger().Entries(ctx, time.Time{})
	if len(all) != 5 || all[0].Outcome != Cancelled {
		t.Errorf("entries oldest first: %+v", all)
	}
}

func close2(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func sameTotals(got, want []Total) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Period != w.Period || g.Group != w.Group || g.Currency != w.Currency || !close2(g.Amount, w.Amount) ||
			!close2(g.Estimated, w.Estimated) || g.Requests != w.Requests || g.Images != w.Images {
			return false
		}
	}
	return true
}

// An item knows the entry that made it, with the usage as reported.
func TestItemsKnowWhatTheyCost(t *testing.T) {
	l := open(t)
	ctx := context.Background()
	opts, _ := json.Marshal(api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low", N: 2})
	id, err := l.Ledger().Record(ctx, Entry{Profile: "p", Model: "gpt-image-1", Kind: SpendGenerate, Outcome: Billed, Options: opts,
		Usage: &api.Usage{InputTokens: 9, OutputTokens: 544}, Images: 2, Cost: f64(0.0218), Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	item, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{10, 20, 30, 255}), Kind: "generate", Prompt: "a", Model: "gpt-image-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Ledger().AttachItems(ctx, id, []int64{item}); err != nil {
		t.Fatal(err)
	}
	e, ok, err := l.Ledger().EntryOf(ctx, item)
	if err != nil || !ok || e.ID != id || e.Usage == nil || e.Usage.OutputTokens != 544 || *e.Cost != 0.0218 || string(e.Options) != string(opts) {
		t.Errorf("entry of item: %+v %v %v", e, ok, err)
	}
	if _, ok, _ := l.Ledger().EntryOf(ctx, item+100); ok {
		t.Error("an item with no entry has none")
	}
}

// A library at version 6 keeps what its services were seen to do and
// the job a kill cut off, and starts an empty ledger.
func TestUpgradeFromV6KeepsTraitsAndJournal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v6", "library"), dir)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	known, err := l.Memory().Known(ctx, ServiceKey{Profile: "p-0a1b2c3d4e5f", Model: "gpt-image-1", Endpoint: EndpointGenerate})
	if err != nil || len(known) != 2 {
		t.Errorf("traits after the upgrade: %+v %v", known, err)
	}
	for _, k := range known {
		if k.Honoured || (k.Trait != honesty.Stream && k.Trait != honesty.Count) {
			t.Errorf("trait changed: %+v", k)
		}
	}
	cut, err := l.Journal().Interrupted(ctx)
	if err != nil || len(cut) != 1 || cut[0].Generate == nil || !strings.Contains(cut[0].Generate.Prompt, "harbour") {
		t.Errorf("the job a kill cut off: %+v %v", cut, err)
	}
	if e, _ := l.Ledger().Entries(ctx, time.Time{}); len(e) != 0 {
		t.Errorf("a new ledger is empty: %+v", e)
	}
	if _, err := l.Ledger().Record(ctx, Entry{Profile: "p", Model: "m", Kind: SpendChat, Outcome: Billed, Currency: "USD"}); err != nil {
		t.Errorf("no entry after the upgrade: %v", err)
	}
}

// TestHelperLedger is not a test: the kill test runs the test binary
// with EASEL_LEDGER_DIR set, and this records entries and saves an image
// for each, for ever, printing each entry's job once Record returns.
func TestHelperLedger(t *testing.T) {
	dir := os.Getenv("EASEL_LEDGER_DIR")
	if dir == "" {
		t.Skip("helper process for the ledger's kill test")
	}
	l, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	ctx := context.Background()
	img := pngOf(t, 16, 16, color.NRGBA{30, 20, 10, 255})
	start, _ := strconv.Atoi(os.Getenv("EASEL_LEDGER_START"))
	for i := start; ; i++ {
		job := fmt.Sprint("job-", i)
		id, err := l.Ledger().Record(ctx, Entry{Profile: "p", Model: "gpt-image-1", Kind: SpendGenerate, Outcome: Billed, Job: job, Images: 1, Cost: f64(0.01), Currency: "USD"})
		if err != nil {
			os.Exit(4)
		}
		fmt.Println(job)
		item, err := l.Add(ctx, NewItem{Image: img, Kind: "generate", Prompt: job, Model: "gpt-image-1"})
		if err != nil {
			os.Exit(5)
		}
		_ = l.Ledger().AttachItems(ctx, id, []int64{item})
	}
}

// A kill while a request's images are saved loses no ledger entry:
// every entry the process had finished writing is there after the kill,
// and the library opens whole.
func TestKilledDuringSavesLosesNoLedgerEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 5))
	written := map[string]bool{}
	next := 0
	for round := 0; round < 30; round++ {
		var out io.ReadCloser
		cmd := child.Start(t, func() *exec.Cmd {
			cmd := helper(dir, "", 0, 0)
			cmd.Args = []string{os.Args[0], "-test.run=^TestHelperLedger$"}
			cmd.Env = append(os.Environ(), "EASEL_LEDGER_DIR="+dir, "EASEL_LEDGER_START="+strconv.Itoa(next))
			cmd.Stderr = nil
			var err error
			if out, err = cmd.StdoutPipe(); err != nil {
				t.Fatal(err)
			}
			return cmd
		})
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		time.Sleep(time.Duration(60+rng.IntN(200)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		for line := range lines {
			if strings.HasPrefix(line, "job-") {
				written[line] = true
			}
		}
		_ = cmd.Wait()
		next += 100000
		l, err := Open(dir)
		if err != nil {
			t.Fatalf("round %d: the library does not open: %v", round, err)
		}
		entries, err := l.Ledger().Entries(context.Background(), time.Time{})
		l.Close()
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, e := range entries {
			have[e.Job] = true
		}
		for job := range written {
			if !have[job] {
				t.Fatalf("round %d: entry %s was written and is gone", round, job)
			}
		}
	}
	if len(written) == 0 {
		t.Error("no entry was ever written: the helper did not run")
	}
	t.Logf("%d entries across 30 kills", len(written))
}
