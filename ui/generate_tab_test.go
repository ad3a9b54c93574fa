package ui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"easel/internal/fakeapi"
	"easel/internal/library"
)

func newServedApp(t *testing.T) *App {
	t.Helper()
	t.Setenv("EASEL_HOME", t.TempDir())
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	ts := httptest.NewServer(fakeapi.New(fakeapi.Config{}))
	t.Cleanup(ts.Close)
	ea := New(test.NewTempApp(t), Options{BaseURL: ts.URL + "/v1"})
	t.Cleanup(func() { ea.svc.runner.Wait(); ea.svc.lib.Close() })
	ea.SelectTab(TabGenerate)
	return ea
}

func TestGenerateSavesToLibraryAndShowsACard(t *testing.T) {
	ea := newServedApp(t)
	g := ea.generate
	test.Type(g.prompt, "a lighthouse")
	typeShortcut(ea.win, shortcutPrimary)
	ea.svc.runner.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for len(g.cards) == 0 || !strings.HasPrefix(onlyCard(g).status.Text, "Done") {
		if time.Now().After(deadline) {
			t.Fatalf("no finished card: %d cards", len(g.cards))
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
	for _, c := range g.cards {
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
	if len(g.cards) != 0 {
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
	ea.useDemo()
	if ea.generate.generate.Disabled() || !strings.Contains(ea.win.Title(), "demo") {
		t.Error("the demo service did not enable Generate")
	}
}
