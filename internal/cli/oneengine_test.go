package cli

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/saver"
)

// #55: the window and the command line run one engine. The same request
// sent by `easel gen` and by the window's runner (saver.Runner, as
// ui.App builds it) leaves the same ledger row (model, kind, outcome,
// cost and where it came from, usage, images, estimate), no journal
// entry left open, and the same picture: in --out for the one, in the
// gallery for the other.
func TestAWindowJobAndACommandLineJobLeaveTheSame(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"}))
	t.Cleanup(ts.Close)
	env, out, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "cli-library")
	dir := t.TempDir()
	const prompt = "a lighthouse at dusk, one engine"
	if code := Run([]string{"gen", "--prompt", prompt, "--quality", "low", "--size", "1024x1024", "--out", dir}, env); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	cliFile := strings.TrimSpace(out.String())

	window, err := library.Open(filepath.Join(t.TempDir(), "window-library"))
	if err != nil {
		t.Fatal(err)
	}
	defer window.Close()
	ended := make(chan jobs.Event, 1)
	runner := saver.Runner(window, func(e jobs.Event) {
		if e.State.Final() {
			ended <- e
		}
	})
	req := api.GenerateRequest{Prompt: prompt, ImageOptions: api.ImageOptions{Model: "gpt-image-1", Quality: "low", Size: "1024x1024", N: 1}}
	client := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-cli-test-key-123456"})
	if _, err := runner.Submit(jobs.Request{Profile: "environment", Generate: &req, Service: client}); err != nil {
		t.Fatal(err)
	}
	var end jobs.Event
	select {
	case end = <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the window's job did not end")
	}
	runner.Wait()
	if end.State != jobs.Done || len(end.ItemIDs) != 1 {
		t.Fatalf("the window's job: %+v", end)
	}

	cliLib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	defer cliLib.Close()
	ctx := context.Background()
	rows := func(lib *library.Library) library.Entry {
		t.Helper()
		entries, err := lib.Ledger().Entries(ctx, time.Time{})
		if err != nil || len(entries) != 1 {
			t.Fatalf("%d ledger rows: %v", len(entries), err)
		}
		if cut, _ := lib.Journal().CutOff(ctx); len(cut) != 0 {
			t.Errorf("a journal entry left open: %+v", cut)
		}
		return entries[0]
	}
	c, w := rows(cliLib), rows(window)
	same := func(what string, a, b any) {
		if a != b {
			t.Errorf("%s: the command line wrote %v, the window %v", what, a, b)
		}
	}
	same("model", c.Model, w.Model)
	same("kind", c.Kind, w.Kind)
	same("outcome", c.Outcome, w.Outcome)
	same("source", c.Source, w.Source)
	same("billing", c.Billing, w.Billing)
	same("images", c.Images, w.Images)
	same("currency", c.Currency, w.Currency)
	same("note", c.Note, w.Note)
	if c.Cost == nil || w.Cost == nil || *c.Cost != *w.Cost {
		t.Errorf("cost: %v and %v", c.Cost, w.Cost)
	}
	if c.EstimateHigh == nil || w.EstimateHigh == nil || *c.EstimateHigh != *w.EstimateHigh {
		t.Errorf("estimate: %v and %v", c.EstimateHigh, w.EstimateHigh)
	}
	if c.Usage == nil || w.Usage == nil || *c.Usage != *w.Usage {
		t.Errorf("usage: %+v and %+v", c.Usage, w.Usage)
	}

	it, err := window.Get(ctx, end.ItemIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	read := func(path string) *imageio.Picture {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return imageio.PictureOf(data)
	}
	if changed, ok := honesty.DriftOf(read(cliFile), read(window.Path(it)), nil); !ok || changed != 0 {
		t.Errorf("the pictures differ: %v of their pixels (comparable: %v)", changed, ok)
	}
}
