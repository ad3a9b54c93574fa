package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/ui/kit"
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
	req := &api.GenerateRequest{Prompt: "复古海报，一只猫", ImageOptions: api.ImageOptions{Model: "fault-" + demoservice.FaultNoBalance, Size: "1024x1024"}}
	var client *api.Client
	onUI(ea, func() { client = ea.session.Client() })
	if _, err := ea.runner.Submit(asGenerate(ea, jobs.Request{Profile: "demo", Service: client, Generate: req})); err != nil {
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
	waitFor(t, ea, "the status bar", func() bool { return strings.HasPrefix(ea.status.bar.Spend.Text, "今日$") })
}

// Settings ▸ Preferences sets the theme at once, and the next start
// keeps it.
func TestThemeIsAPreference(t *testing.T) {
	ea := newServedApp(t)
	dark := func() bool {
		th := ea.fyneApp.Settings().Theme()
		r, g, b, _ := th.Color(theme.ColorNameBackground, ea.fyneApp.Settings().ThemeVariant()).RGBA()
		return r+g+b < 3*0x8000
	}
	onUI(ea, func() {
		ea.showSettings()
		ea.settings.Theme.SetSelected("Light")
	})
	onUI(ea, func() {
		if dark() || ea.fyneApp.Preferences().String(kit.PrefTheme) != kit.ThemeLight {
			t.Error("Light did not apply, or is not remembered")
		}
		ea.settings.Theme.SetSelected("Dark")
		if !dark() {
			t.Error("Dark did not apply")
		}
	})
	again := newApp(t, ea.fyneApp, isolated(t, Options{}))
	defer again.win.Close()
	onUI(again, func() {
		if !dark() {
			t.Error("the next start forgot the theme")
		}
	})
}

// Picking another language offers to restart at once, and Restart now
// leaves as Quit does, asking main to start Easel again; the choice is
// written for that start.
func TestANewLanguageOffersARestart(t *testing.T) {
	ea := newServedApp(t)
	t.Cleanup(func() { restartWanted.Store(false) })
	onUI(ea, func() {
		ea.showSettings()
		ea.settings.Sections.SelectIndex(1)
		ea.settings.Language.SetSelected("简体中文")
	})
	waitFor(t, ea, "Restart now", func() bool { return findButton(ea.win, "Restart now") != nil })
	if got := ea.session.File().Language; got != "zh-Hans" {
		t.Errorf("the language kept for the next start is %q", got)
	}
	onUI(ea, func() { test.Tap(findButton(ea.win, "Restart now")) })
	if !RestartWanted() {
		t.Error("Restart now did not ask for a new start")
	}
}

// Esc closes Settings, whose Close buttons sit inside its tabs where the
// dialog keys did not find them; a profile with unsaved changes asks
// first, as Close does.
func TestEscClosesSettings(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, ea.showSettings)
	onUI(ea, func() { ea.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	waitFor(t, ea, "Settings closed", func() bool { return ea.settings == nil })
}
