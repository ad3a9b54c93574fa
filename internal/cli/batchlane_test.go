package cli

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"easel/internal/demoservice"
	"easel/internal/library"
)

// #56: `easel batch --lane batch` says both lanes' prices, makes one
// batch, and is killed while it waits; `easel jobs` lists the batch at
// work and `easel jobs --wait` brings all twelve pictures into the
// gallery and --out, each with a ledger row at the Batch API's price.
func TestABatchLaneSurvivesAKillAndJobsWaitFinishesIt(t *testing.T) {
	srv := demoservice.New(demoservice.Config{BatchPace: 150 * time.Millisecond})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	home, out := t.TempDir(), t.TempDir()
	cmd := child(t, home, ts.URL, "sk-cli-test-key-123456", "batch", "--lane", "batch", "--prompt", "a {animal}",
		"--var", "animal=cat,dog,owl,elk,fox,yak,emu,ant,bee,cow,hen,pig", "--size", "1024x1024", "--quality", "low", "--out", out)
	cmd.Env = append(cmd.Env, "EASEL_BATCH_POLL=50ms")
	var said strings.Builder
	cmd.Stderr = &said
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for srv.Batch.Batches() < 1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(400 * time.Millisecond) // waiting on the batch
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if !strings.Contains(said.String(), "within 24 h through the Batch API") {
		t.Errorf("the two lanes' prices were not said:\n%s", said.String())
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*.png")); len(files) != 0 {
		t.Fatalf("the batch was done before the kill (%d files): make the pace slower", len(files))
	}

	env, stdout, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(home, "library")
	vars := env.Getenv
	env.Getenv = func(k string) string {
		if k == "EASEL_BATCH_POLL" {
			return "50ms"
		}
		return vars(k)
	}
	if code := Run([]string{"jobs"}, env); code != 0 || !strings.Contains(stdout.String(), "of 12 done") {
		t.Fatalf("jobs: exit %d, %q %q", code, stdout, errOut)
	}
	lib, err := library.Open(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	pending, _ := lib.Journal().Batches().Pending(context.Background())
	lib.Close()
	if len(pending) != 1 {
		t.Fatalf("%d batches at work after the kill", len(pending))
	}
	if code := Run([]string{"jobs", "--wait", pending[0].ID}, env); code != 0 {
		t.Fatalf("jobs --wait: exit %d: %s", code, errOut)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*.png")); len(files) != 12 {
		t.Errorf("%d files in --out, want 12", len(files))
	}
	lib, err = library.Open(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ctx := context.Background()
	if n, _ := lib.Count(ctx, library.Query{}); n != 12 {
		t.Errorf("%d pictures in the gallery, want 12", n)
	}
	rows, _ := lib.Ledger().Entries(ctx, time.Time{})
	if len(rows) != 12 {
		t.Fatalf("%d ledger rows, want 12", len(rows))
	}
	for _, r := range rows {
		if r.Cost == nil || !strings.Contains(r.Note, "Batch API's price, 50%") {
			t.Errorf("row %+v", r)
		}
	}
	if cut, _ := lib.Journal().CutOff(ctx); len(cut) != 0 {
		t.Errorf("%d requests left", len(cut))
	}
}

// A gateway without the Batch API is said, with its answer, and nothing
// is sent.
func TestNoBatchLaneThroughAGatewayWithoutIt(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456", Batches: demoservice.BatchesNone})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	env, _, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "library")
	code := Run([]string{"batch", "--lane", "batch", "--prompt", "a {animal}", "--var", "animal=cat,dog", "--out", t.TempDir()}, env)
	if code == 0 || !strings.Contains(errOut.String(), "no batch lane through this service: the service has no Batch API (HTTP 404)") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if total, _ := srv.ImageRequests(); total != 0 {
		t.Errorf("%d requests went out", total)
	}
}
