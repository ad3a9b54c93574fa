package ui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/fakeapi"
	"easel/internal/jobs"
	"easel/internal/library"
)

func newServedApp(t *testing.T) *App {
	t.Helper()
	t.Setenv("EASEL_HOME", t.TempDir())
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	ts := httptest.NewServer(fakeapi.New(fakeapi.Config{}))
	t.Cleanup(ts.Close)
	ea := New(test.NewTempApp(t), isolated(t, Options{BaseURL: ts.URL + "/v1"}))
	t.Cleanup(func() { ea.svc.runner.Wait(); ea.svc.lib.Close() })
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	// Let the model list arrive, so no update is in flight when the test
	// starts driving the widgets.
	waitFor(t, ea, "the model list", func() bool { return len(ea.generate.options.model.listed) > 0 })
	return ea
}

func TestGenerateSavesToLibraryAndShowsACard(t *testing.T) {
	ea := newServedApp(t)
	g := ea.generate
	test.Type(g.prompt, "a lighthouse")
	typeShortcut(ea.win, shortcutPrimary)
	ea.svc.runner.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for len(g.jobs.cards) == 0 || !strings.HasPrefix(onlyCard(g).status.Text, "Done") {
		if time.Now().After(deadline) {
			t.Fatalf("no finished card: %d cards", len(g.jobs.cards))
		}
		time.Sleep(10 * time.Millisecond)
	}
	n, _ := ea.svc.lib.Count(context.Background(), library.Query{Search: "lighthouse"})
	if n != 1 {
		t.Errorf("library holds %d matching images, want 1", n)
	}
	if onlyCard(g).cancel.Visible() {
		t.Error("a finished job still offers Cancel")
	}
}

func onlyCard(g *generateTab) *jobCard {
	for _, c := range g.jobs.cards {
		return c
	}
	return nil
}

func TestGenerateChecksBeforeSending(t *testing.T) {
	ea := newServedApp(t)
	g := ea.generate
	test.Type(g.prompt, "x")
	g.options.size.SetSelected(customSizeLabel)
	g.options.customW.SetText("1000")
	g.options.customH.SetText("1000")
	g.primaryAction()
	if len(g.jobs.cards) != 0 {
		t.Error("a job started with an invalid size")
	}
	if !strings.Contains(g.status.Text, "multiples of 16") || !strings.Contains(g.status.Text, "1008x1008") {
		t.Errorf("status %q", g.status.Text)
	}
}

func TestNoServiceOffersTheDemo(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	ea, _ := newTestApp(t)
	ea.SelectTab(TabGenerate)
	if !ea.generate.generate.Disabled() || !strings.Contains(ea.generate.status.Text, "demo") {
		t.Errorf("no-service state: disabled=%v %q", ea.generate.generate.Disabled(), ea.generate.status.Text)
	}
	ea.SelectTab(TabEdit)
	if !ea.edit.send.Disabled() {
		t.Error("Send edit enabled with no service")
	}
	ea.useDemo()
	if ea.generate.generate.Disabled() || !strings.Contains(ea.win.Title(), "demo") {
		t.Error("the demo service did not enable Generate")
	}
	if ea.edit.send.Disabled() {
		t.Error("the demo service did not enable Send edit")
	}
}

func TestSendToEditKeepsOrderAndLineage(t *testing.T) {
	ea := newServedApp(t)
	test.Type(ea.generate.prompt, "first")
	ea.generate.primaryAction()
	ea.svc.runner.Wait()
	ea.generate.prompt.SetText("second")
	ea.generate.primaryAction()
	ea.svc.runner.Wait()
	ctx := context.Background()
	items, _ := ea.svc.lib.List(ctx, library.Query{})
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	first, second := items[1], items[0] // newest first
	ea.sendToEdit(second)
	ea.sendToEdit(first)
	e := ea.edit
	if ea.CurrentTab() != TabEdit || len(e.refs) != 2 || e.refs[0].item != second.ID {
		t.Fatalf("refs %v", e.refs)
	}
	e.move(0, 1) // now first, second
	if e.refs[0].item != first.ID {
		t.Fatal("move did not reorder")
	}
	e.prompt.SetText("put the second on the first")
	e.primaryAction()
	ea.svc.runner.Wait()
	res, _ := ea.svc.lib.List(ctx, library.Query{Search: "put"})
	if len(res) != 1 || res[0].Kind != "edit" {
		t.Fatalf("edit results %v (status %q)", res, e.status.Text)
	}
	it, _ := ea.svc.lib.Get(ctx, res[0].ID)
	if len(it.Parents) != 2 || it.Parents[0] != first.ID || it.Parents[1] != second.ID {
		t.Errorf("lineage %v, want [%d %d]", it.Parents, first.ID, second.ID)
	}
	e.remove(0)
	if len(e.refs) != 1 || e.refs[0].item != second.ID {
		t.Errorf("remove left %v", e.refs)
	}
}

func TestClosingWhileJobsRunAsksFirst(t *testing.T) {
	ea := newServedApp(t)
	req := api.GenerateRequest{Prompt: "slow", ImageOptions: api.ImageOptions{Model: "fault-" + fakeapi.FaultSlowFirstByte, Size: "1024x1024"}}
	id, err := ea.svc.runner.Submit(jobs.Request{Profile: "p", Service: ea.acct.client, Generate: &req})
	if err != nil {
		t.Fatal(err)
	}
	ea.confirmClose()
	if ea.win.Canvas().Overlays().Top() == nil {
		t.Error("closing with a job running did not ask first")
	}
	ea.svc.runner.Cancel(id)
	ea.svc.runner.Wait()
}
