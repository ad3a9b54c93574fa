package ui

import (
	"strings"
	"testing"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/fakeapi"
	"easel/internal/jobs"
)

// With Chinese chosen, the window's tabs, its status bar and a failure on
// a job card are in Chinese; the service's own words stay as it sent
// them, one click away.
func TestTheWindowSpeaksChinese(t *testing.T) {
	catalogue.Use("zh_CN.UTF-8")
	defer catalogue.Use("en")
	ea := newServedApp(t)
	var titles []string
	onUI(ea, func() {
		for _, it := range ea.tabs.Items {
			titles = append(titles, it.Text)
		}
	})
	if strings.Join(titles, " ") != "对话 文生图 编辑 图库" {
		t.Errorf("tabs: %v", titles)
	}
	g := ea.generate
	req := &api.GenerateRequest{Prompt: "复古海报，一只猫", ImageOptions: api.ImageOptions{Model: "fault-" + fakeapi.FaultNoBalance, Size: "1024x1024"}}
	var client *api.Client
	onUI(ea, func() { client = ea.session.Client() })
	if _, err := ea.runner.Submit(jobs.Request{Profile: "demo", Service: client, Generate: req}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ea, "the failure on the card", func() bool {
		c := onlyCard(g)
		return c != nil && c.Status.Text == "余额不足"
	})
	var words string
	onUI(ea, func() { words, _ = onlyCard(g).ServiceWords() })
	if !strings.Contains(words, "insufficient") && !strings.Contains(words, "额度") {
		t.Errorf("the service's own words: %q", words)
	}
	waitFor(t, ea, "the status bar", func() bool { return strings.HasPrefix(ea.statusBar.Spend.Text, "今日$") })
}
