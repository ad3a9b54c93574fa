package api_test

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/demoservice"
	"easel/internal/testsupport/fixture"
)

// A batch goes the whole way through the demo's Files and Batch APIs:
// the request file uploaded, the batch made, its status read until it
// is done, its output downloaded and read into the same results a live
// request gives, each under the custom_id it was sent with. Edits name
// references uploaded once.
func TestABatchOfGenerationsAndOneOfEditsComeBack(t *testing.T) {
	srv := demoservice.New(demoservice.Config{})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-batch-test-0123456789"})
	ctx := context.Background()
	if ok, why, err := api.NewBatches(c).Offered(ctx); !ok || err != nil {
		t.Fatalf("batches offered: %v %q %v", ok, why, err)
	}
	var lines bytes.Buffer
	for i := range 3 {
		line, err := api.GenerateLine(fmt.Sprintf("r%d", i), api.GenerateRequest{Prompt: fmt.Sprintf("a fox %d", i),
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low", Stream: true, PartialImages: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(line), `"stream"`) {
			t.Errorf("a batch line asks for a stream: %s", line)
		}
		lines.Write(append(line, '\n'))
	}
	answers := runBatch(t, api.NewBatches(c), lines.Bytes(), api.BatchGenerations)
	if len(answers) != 3 {
		t.Fatalf("%d answers", len(answers))
	}
	for _, a := range answers {
		if a.Err != nil || a.Result == nil || len(a.Result.Images) != 1 || a.Result.Images[0].Width != 1024 {
			t.Errorf("%s: %+v", a.CustomID, a)
		}
	}

	bs := api.NewBatches(c)
	ref, err := bs.Upload(ctx, api.InputImage{Name: "ref.png", Data: fixture.SolidPNG(t, 4, 4, color.Black), ContentType: "image/png"}, "batch")
	if err != nil {
		t.Fatal(err)
	}
	lines.Reset()
	for i := range 2 {
		line, err := api.EditLine(fmt.Sprintf("e%d", i), api.EditRequest{Prompt: "warmer", Images: []api.InputImage{{Name: "ref.png"}},
			ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}}, []string{ref}, "")
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(line, '\n'))
	}
	if again, _ := bs.Upload(ctx, api.InputImage{Name: "same.png", Data: fixture.SolidPNG(t, 4, 4, color.Black), ContentType: "image/png"}, "batch"); again != ref {
		t.Errorf("the same picture uploaded again as %s, not %s", again, ref)
	}
	edits := runBatch(t, bs, lines.Bytes(), api.BatchEdits)
	if len(edits) != 2 || edits[0].Err != nil || edits[1].Result == nil {
		t.Fatalf("edits: %+v", edits)
	}
	if n := srv.Batch.Uploads("batch"); n != 3 {
		t.Errorf("%d files uploaded, want the reference once and two request files", n)
	}
}

// runBatch uploads lines as a batch to endpoint and reads its answers.
func runBatch(t *testing.T, c *api.Batches, lines []byte, endpoint string) []api.BatchAnswer {
	t.Helper()
	ctx := context.Background()
	input, err := c.Upload(ctx, api.InputImage{Name: "requests.jsonl", Data: lines, ContentType: "application/jsonl"}, "batch")
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Create(ctx, input, endpoint, map[string]string{"made_by": "easel"})
	if err != nil {
		t.Fatal(err)
	}
	for !b.Final() {
		if b, err = c.Status(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
	}
	if b.Status != api.BatchCompleted || b.OutputFile == "" {
		t.Fatalf("batch %+v", b)
	}
	var out bytes.Buffer
	if err := c.Download(ctx, b.OutputFile, &out, 1<<30); err != nil {
		t.Fatal(err)
	}
	var answers []api.BatchAnswer
	if err := c.ReadAnswers(ctx, &out, "gpt-image-1", 1, func(a api.BatchAnswer) error {
		answers = append(answers, a)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return answers
}

// A gateway without the Batch API is said as one, with the status it
// answered.
func TestAGatewayWithoutBatchesIsSaid(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{Batches: demoservice.BatchesNone}))
	t.Cleanup(ts.Close)
	c := api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-batch-test-0123456789"})
	ok, why, err := api.NewBatches(c).Offered(context.Background())
	if ok || err != nil || !strings.Contains(why, "no Batch API (HTTP 404)") {
		t.Fatalf("offered %v, %q, %v", ok, why, err)
	}
}

// A long render goes in the Responses API's background mode: made, read
// queued and in progress, then done with its picture; one cancelled
// early ends cancelled.
func TestABackgroundRenderIsReadUntilItIsDone(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{BatchPace: 50 * time.Millisecond}))
	t.Cleanup(ts.Close)
	bs := api.NewBatches(api.New(api.Config{BaseURL: ts.URL + "/v1", APIKey: "sk-batch-test-0123456789"}))
	ctx := context.Background()
	b, err := bs.Render(ctx, api.EditRequest{Prompt: "a harbour at night, in 4K", ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high"}})
	if err != nil || b.Status != api.RenderQueued || b.Final() {
		t.Fatalf("made %+v, %v", b, err)
	}
	seen := map[string]bool{}
	var res *api.ImageResult
	for deadline := time.Now().Add(5 * time.Second); !b.Final() && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, res, err = bs.RenderStatus(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
		seen[b.Status] = true
	}
	if b.Status != api.BatchCompleted || res == nil || len(res.Images) != 1 || !seen[api.BatchInProgress] {
		t.Fatalf("ended %+v with %v, seen %v", b, res, seen)
	}
	c, err := bs.Render(ctx, api.EditRequest{Prompt: "a second harbour", ImageOptions: api.ImageOptions{Model: "gpt-image-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if c, err = bs.CancelRender(ctx, c.ID); err != nil || c.Status != api.BatchCancelled || !c.Final() {
		t.Errorf("cancelled %+v, %v", c, err)
	}
}
