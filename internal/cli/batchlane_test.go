package cli

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/batchlane"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/saver"
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

// #56: the same batch from `easel batch --lane batch` and from the
// window's lane (batchlane over saver.Runner, as ui.App builds it)
// leaves the same ledger rows, the same number of gallery items, and
// nothing in the journal; the command line's files are in --out too.
func TestAWindowBatchAndACommandLineBatchLeaveTheSame(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"}))
	t.Cleanup(ts.Close)
	env, _, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "cli-library")
	out := t.TempDir()
	animals := []string{"cat", "dog", "owl"}
	if code := Run([]string{"batch", "--lane", "batch", "--prompt", "a {animal}", "--var", "animal=" + strings.Join(animals, ","),
		"--size", "1024x1024", "--quality", "low", "--out", out}, env); code != 0 {
		t.Fatalf("batch: %s", errOut)
	}
	window, err := library.Open(filepath.Join(t.TempDir(), "window-library"))
	if err != nil {
		t.Fatal(err)
	}
	defer window.Close()
	client := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-cli-test-key-123456"})
	lane := batchlane.New(client, window, batchlane.Options{Poll: time.Millisecond})
	var reqs []jobs.Request
	for _, a := range animals {
		reqs = append(reqs, jobs.Request{Profile: "environment", Generate: &api.GenerateRequest{Prompt: "a " + a,
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"}}})
	}
	ctx := context.Background()
	rec, err := lane.Send(ctx, batchlane.Batch{Requests: reqs, Label: "a {animal}"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lane.Follow(ctx, rec.ID, batchlane.Through(saver.Runner(window, nil), nil), nil); err != nil {
		t.Fatal(err)
	}
	cliLib, err := library.OpenWithoutRepair(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	defer cliLib.Close()
	type row struct {
		model, outcome, source, note string
		cost                         float64
	}
	rowsOf := func(lib *library.Library) map[row]int {
		entries, _ := lib.Ledger().Entries(ctx, time.Time{})
		m := map[row]int{}
		for _, e := range entries {
			r := row{model: e.Model, outcome: e.Outcome, source: e.Source, note: e.Note}
			if e.Cost != nil {
				r.cost = *e.Cost
			}
			m[r]++
		}
		if cut, _ := lib.Journal().CutOff(ctx); len(cut) != 0 {
			t.Errorf("%d journal entries left", len(cut))
		}
		return m
	}
	if c, w := rowsOf(cliLib), rowsOf(window); !reflect.DeepEqual(c, w) || len(c) == 0 {
		t.Errorf("ledger rows differ:\n cli    %+v\n window %+v", c, w)
	}
	nc, _ := cliLib.Count(ctx, library.Query{})
	nw, _ := window.Count(ctx, library.Query{})
	files, _ := filepath.Glob(filepath.Join(out, "*.png"))
	if nc != 3 || nw != 3 || len(files) != 3 {
		t.Errorf("gallery items: cli %d, window %d; files in --out %d", nc, nw, len(files))
	}
}

// `easel jobs --cancel ID` cancels the batch at the service and brings
// in what it had finished; the rest is listed, uncharged.
func TestJobsCancelStopsABatch(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456", BatchPace: time.Hour})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	env, stdout, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "library")
	lib, err := library.Open(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-cli-test-key-123456"})
	rec, err := batchlane.New(client, lib, batchlane.Options{}).Send(context.Background(), batchlane.Batch{Label: "two foxes", Owner: library.OwnerCLI,
		Requests: []jobs.Request{
			{Profile: "environment", Generate: &api.GenerateRequest{Prompt: "a fox", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}}},
			{Profile: "environment", Generate: &api.GenerateRequest{Prompt: "a red fox", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}}},
		}})
	lib.Close()
	if err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"jobs", "--cancel", rec.ID}, env); code == 0 || !strings.Contains(errOut.String(), "cancelled before this request was made") {
		t.Fatalf("jobs --cancel: exit %d: %s", code, errOut)
	}
	stdout.Reset()
	if code := Run([]string{"jobs"}, env); code != 0 || strings.Count(stdout.String(), "not made by batch "+rec.ID) != 2 {
		t.Errorf("jobs after the cancel: %s", stdout)
	}
}

// `easel batch --image` makes each row an edit of the references: in the
// batch lane each reference goes up once, whatever the rows; in the live
// lane each row is an edit sent at once.
func TestABatchOfEditsUploadsEachReferenceOnce(t *testing.T) {
	srv := demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456"})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	var refs []string
	for i, c := range []color.NRGBA{{200, 40, 40, 255}, {40, 200, 40, 255}} {
		img := image.NewNRGBA(image.Rect(0, 0, 48, 48))
		draw.Draw(img, img.Bounds(), &image.Uniform{c}, image.Point{}, draw.Src)
		var b bytes.Buffer
		png.Encode(&b, img)
		path := filepath.Join(dir, fmt.Sprintf("ref-%d.png", i))
		os.WriteFile(path, b.Bytes(), 0o600)
		refs = append(refs, "--image", path)
	}
	for _, lane := range []string{"batch", "now"} {
		env, _, errOut := testEnv(t, ts.URL+"/v1")
		env.Library = filepath.Join(t.TempDir(), "library")
		args := append([]string{"batch", "--lane", lane, "--prompt", "the same scene {when}", "--var", "when=at dawn,at noon,at dusk",
			"--size", "1024x1024", "--out", t.TempDir()}, refs...)
		if code := Run(args, env); code != 0 {
			t.Fatalf("%s: exit %d: %s", lane, code, errOut)
		}
	}
	if n := srv.Batch.Uploads("batch"); n != 3 {
		t.Errorf("%d files uploaded, want the two references once and the request file", n)
	}
	if total, _ := srv.ImageRequests(); total != 3 {
		t.Errorf("%d live requests, want the three edits of the live lane", total)
	}
}

// `easel gen --in-background` renders in the Responses API's background
// mode: the picture lands in --out and the gallery, at the live price.
func TestGenInTheBackground(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Key: "sk-cli-test-key-123456", BatchPace: 30 * time.Millisecond}))
	defer ts.Close()
	env, stdout, errOut := testEnv(t, ts.URL+"/v1")
	env.Library = filepath.Join(t.TempDir(), "library")
	out := t.TempDir()
	if code := Run([]string{"gen", "--in-background", "--prompt", "a harbour at night", "--quality", "high", "--size", "1024x1024", "--out", out}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*.png")); len(files) != 1 || !strings.Contains(stdout.String(), files[0]) {
		t.Errorf("files %v; said %q", files, stdout)
	}
	if !strings.Contains(errOut.String(), "is done: the picture is in the gallery") {
		t.Errorf("said %s", errOut)
	}
	lib, err := library.Open(env.Library)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if n, _ := lib.Count(context.Background(), library.Query{}); n != 1 {
		t.Errorf("%d in the gallery", n)
	}
}
