package ui

import (
	"bytes"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/config"
	"easel/internal/demoservice"
	"easel/internal/jobs"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/ui/chrome"
	"easel/ui/jobview"
	"easel/ui/room"
	"easel/ui/room/roomtest"
	"easel/ui/widgets/searchentry"
	"easel/ui/widgets/thumbgrid"
)

// newApp opens a window for a test and shuts it down at the end: no
// update reaches its widgets after that (the next test's window may be
// building), and its goroutines and library are finished.
func newApp(t testing.TB, a fyne.App, o Options) *App {
	t.Helper()
	ea := New(a, o)
	t.Cleanup(func() {
		ea.bridge.Close()
		ea.session.Wait()
		ea.work.Close(30 * time.Second)
		if ea.runner != nil {
			ea.runner.Wait()
			ea.thumbs.Wait()
			ea.lib.Close()
		}
	})
	return ea
}

func newTestApp(t *testing.T) (*App, fyne.App) {
	t.Helper()
	a := test.NewTempApp(t)
	ea := newApp(t, a, isolated(t, Options{}))
	t.Cleanup(ea.win.Close)
	return ea, a
}

// isolated gives a window its own gallery, profiles file and keyring, and
// no OPENAI_* environment, so tests never touch the user's.
func isolated(t testing.TB, o Options) Options {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("EASEL_HOME", filepath.Join(dir, "data"))
	if o.ConfigPath == "" {
		o.ConfigPath = filepath.Join(dir, "config", "profiles.json")
	}
	if o.Keys == nil {
		o.Keys = secrets.New(secretstest.NewMemory(), 0)
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	return o
}

// typeShortcut fires a window shortcut as the canvas does when it is
// typed.
func typeShortcut(ea *App, sc fyne.Shortcut) {
	ea.menus.shortcuts[sc.ShortcutName()]()
}

func TestTabsInOrder(t *testing.T) {
	ea := newServedApp(t)
	want := []string{"Chat", "Text to image", "Edit", "Gallery"}
	if got := len(ea.tabs.Items); got != len(want) {
		t.Fatalf("got %d tabs, want %d", got, len(want))
	}
	for i, item := range ea.tabs.Items {
		if item.Text != want[i] {
			t.Errorf("tab %d is %q, want %q", i, item.Text, want[i])
		}
		if item.Content == nil || item.Icon == nil {
			t.Errorf("tab %q has no content or icon", item.Text)
		}
	}
}

func TestShortcutsSwitchTabAndFocusMainInput(t *testing.T) {
	ea := newServedApp(t)
	// Tabs are built when first shown, so the targets are read afterwards.
	focus := []func() fyne.Focusable{
		func() fyne.Focusable { return ea.chat.FocusTarget() },
		func() fyne.Focusable { return ea.generate.Prompt() },
		func() fyne.Focusable { return ea.edit.Prompt() },
		func() fyne.Focusable { return ea.gallery.FocusTarget() },
	}
	for _, i := range []int{TabGallery, TabChat, TabEdit, TabGenerate, TabGallery} {
		// The gallery's query answers through the bridge, so the test
		// drives and reads the window there too.
		onUI(ea, func() {
			typeShortcut(ea, shortcutTab[i])
			if got := ea.CurrentTab(); got != i {
				t.Fatalf("Ctrl+%d: tab %d shown, want %d", i+1, got, i)
			}
			if want, got := focus[i](), ea.win.Canvas().Focused(); got != want || want == nil {
				t.Errorf("Ctrl+%d: focus on %T %p, want the tab's main input %T %p", i+1, got, got, want, want)
			}
		})
	}
}

// The Gallery arrives with the grid focused, so the arrows and Enter
// browse at once; a letter typed there starts a search with it, and
// Ctrl+F from any tab goes to the search. (Ctrl+4 used to focus the
// search, which took the arrows.)
func TestTheGalleryGridHasTheKeysAndALetterSearches(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		typeShortcut(ea, shortcutTab[TabGallery])
		grid, ok := ea.win.Canvas().Focused().(*thumbgrid.Grid)
		if !ok {
			t.Fatalf("Ctrl+4 focused %T, want the grid", ea.win.Canvas().Focused())
		}
		grid.TypedRune('c')
		search, ok := ea.win.Canvas().Focused().(*searchentry.Entry)
		if !ok || search.Text != "c" {
			t.Fatalf("typing c on the grid focused %T (%v)", ea.win.Canvas().Focused(), ok)
		}
		typeShortcut(ea, shortcutTab[TabGenerate])
		typeShortcut(ea, shortcutSearch)
		if ea.CurrentTab() != TabGallery || ea.win.Canvas().Focused() != search {
			t.Errorf("Ctrl+F: tab %d, focus %T", ea.CurrentTab(), ea.win.Canvas().Focused())
		}
	})
}

func TestTappingATabFocusesItsMainInput(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		ea.tabs.SelectIndex(TabChat)
		if ea.win.Canvas().Focused() != ea.chat.FocusTarget() {
			t.Fatalf("selecting Chat left the focus on %T", ea.win.Canvas().Focused())
		}
	})
}

func TestMenuShowsEveryTabShortcut(t *testing.T) {
	ea := newServedApp(t)
	var view *fyne.Menu
	for _, m := range ea.win.MainMenu().Items {
		if m.Label == "View" {
			view = m
		}
	}
	if view == nil {
		t.Fatal("no View menu")
	}
	for i, item := range view.Items[:len(shortcutTab)] {
		if item.Shortcut != shortcutTab[i] {
			t.Errorf("View > %s shows no Ctrl+%d", item.Label, i+1)
		}
	}
	labels := map[string]bool{}
	for _, m := range ea.win.MainMenu().Items {
		labels[m.Label] = true
	}
	for _, l := range []string{"File", "Edit", "View", "Help"} {
		if !labels[l] {
			t.Errorf("main menu lacks %s", l)
		}
	}
}

func TestLastTabAndSizeRemembered(t *testing.T) {
	t.Setenv("EASEL_HOME", t.TempDir())
	a := test.NewTempApp(t)
	first := newApp(t, a, isolated(t, Options{}))
	first.SelectTab(TabEdit)
	first.win.Resize(fyne.NewSize(1000, 700))
	first.saveState()
	first.win.Close()

	second := newApp(t, a, isolated(t, Options{}))
	defer second.win.Close()
	if got := second.CurrentTab(); got != TabEdit {
		t.Errorf("reopened on tab %d, want %d (Edit)", got, TabEdit)
	}
	p := a.Preferences()
	if w, h := p.Float(prefWindowWidth), p.Float(prefWindowHeight); w != 1000 || h != 700 {
		t.Errorf("remembered size %vx%v, want 1000x700", w, h)
	}
}

func TestFirstRunOpensOnTextToImageAtDefaultSize(t *testing.T) {
	ea, _ := newTestApp(t)
	if got := ea.CurrentTab(); got != TabGenerate {
		t.Errorf("first run shows tab %d, want Text to image", got)
	}
	if got := ea.win.Canvas().Size(); got.Width < defaultWindowSize.Width || got.Height < defaultWindowSize.Height {
		t.Errorf("first window is %v, want at least %v", got, defaultWindowSize)
	}
}

// smallestWindow is the room a 1366x768 laptop leaves a window once its
// panels and title bar are drawn. A tab that needs more makes Fyne grow the
// window past the screen's edge: the Gallery's wrapped empty-state hint did
// (1030 px tall) until a real-window screenshot caught it.
var smallestWindow = fyne.NewSize(1280, 680)

func TestEveryTabFitsASmallWindow(t *testing.T) {
	ea := newServedApp(t)
	for i, item := range ea.tabs.Items {
		onUI(ea, func() {
			ea.SelectTab(i)
			min := item.Content.MinSize()
			if min.Width > smallestWindow.Width || min.Height > smallestWindow.Height {
				t.Errorf("tab %q needs %.0fx%.0f, more than %.0fx%.0f", item.Text, min.Width, min.Height, smallestWindow.Width, smallestWindow.Height)
			}
		})
	}
	// The whole window too, with the banner, status bar and tab strip.
	onUI(ea, func() {
		if min := ea.win.Content().MinSize(); min.Height > smallestWindow.Height {
			t.Errorf("window content needs %.0f px of height", min.Height)
		}
	})
}

// The title names the profile as its user wrote it; a name that starts
// with a letter of two bytes stays whole.
func TestWindowTitleKeepsTheProfileNameWhole(t *testing.T) {
	for _, name := range []string{"Étude", "Studio", "工作室"} {
		got := windowTitle(config.Profile{Name: name})
		if got != "Easel — "+name || !utf8.ValidString(got) {
			t.Errorf("title for %q is %q", name, got)
		}
	}
}

// A banner that comes after the window is laid out pushes the tabs down
// rather than covering the tab bar.
func TestABannerPushesTheTabsDown(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		top := ea.tabs.Position().Y
		ea.banner.Show(chrome.BannerKeyring, "The system keyring is unavailable.", "Enter a key for this session…", func() {})
		h := ea.banner.Box.MinSize().Height
		if got := ea.tabs.Position().Y; got < top+h {
			t.Errorf("the tabs start at y=%.0f under a banner %.0f px tall (before: %.0f)", got, h, top)
		}
		ea.banner.Hide(chrome.BannerKeyring)
		if got := ea.tabs.Position().Y; got != top {
			t.Errorf("the tabs stay at y=%.0f once the banner is gone, want %.0f", got, top)
		}
	})
}

// Chat's "Use as prompt" fills the chosen tab's prompt and shows it;
// Ctrl+N opens Chat on a new conversation.
func TestUseAsPromptAndNewChat(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		ea.host.UsePrompt(room.TargetEdit, "a green velvet armchair")
		if ea.CurrentTab() != TabEdit || ea.edit.Prompt().Text != "a green velvet armchair" {
			t.Errorf("Use as prompt in Edit: tab %d, prompt %q", ea.CurrentTab(), ea.edit.Prompt().Text)
		}
		ea.host.UsePrompt(room.TargetGenerate, "a lighthouse at dusk")
		if ea.CurrentTab() != TabGenerate || ea.generate.Prompt().Text != "a lighthouse at dusk" {
			t.Errorf("Use as prompt in Text to image: tab %d, prompt %q", ea.CurrentTab(), ea.generate.Prompt().Text)
		}
		typeShortcut(ea, shortcutNewChat)
		if ea.CurrentTab() != TabChat || ea.chat.Current().ID != 0 || ea.win.Canvas().Focused() != ea.chat.FocusTarget() {
			t.Errorf("Ctrl+N: tab %d, conversation %d", ea.CurrentTab(), ea.chat.Current().ID)
		}
	})
}

// Ctrl+1 with the mask painter focused is its 100 %, not Chat: the view
// claims the keys it shares with the window.
func TestCtrl1InThePainterIsItsZoom(t *testing.T) {
	ea := newServedApp(t)
	dir := t.TempDir()
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 2000, 1500)))
	p := filepath.Join(dir, "big.png")
	_ = os.WriteFile(p, buf.Bytes(), 0o600)
	onUI(ea, func() { ea.openFiles([]string{p}) })
	waitFor(t, ea, "the painter", func() bool { return ea.edit.Painter().Mask() != nil })
	onUI(ea, func() {
		ea.win.Canvas().Focus(ea.edit.Painter())
		before := ea.edit.Painter().Zoom().Percent()
		typeShortcut(ea, shortcutTab[TabChat])
		if ea.CurrentTab() != TabEdit {
			t.Errorf("Ctrl+1 in the painter switched to tab %d", ea.CurrentTab())
		}
		if got := ea.edit.Painter().Zoom().Percent(); got == before || got < 99 || got > 101 {
			t.Errorf("Ctrl+1 in the painter: zoom %.0f %% (was %.0f %%), want 100 %%", got, before)
		}
		ea.win.Canvas().Focus(ea.edit.Prompt())
		typeShortcut(ea, shortcutTab[TabChat])
		if ea.CurrentTab() != TabChat {
			t.Errorf("Ctrl+1 from the prompt did not switch to Chat")
		}
	})
}

// Edit puts the canvas first: at 1280x800 the painter's area is at least
// half of the window, even with the menu bar drawn above the tabs; with
// the panel folded it takes the tab's whole width, and the fold and the
// divider are remembered.
func TestEditCanvasTakesHalfTheWindow(t *testing.T) {
	ea := newServedApp(t)
	dir := t.TempDir()
	var buf bytes.Buffer
	_ = png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1024, 1024)))
	p := filepath.Join(dir, "square.png")
	_ = os.WriteFile(p, buf.Bytes(), 0o600)
	onUI(ea, func() {
		ea.win.Resize(fyne.NewSize(1280, 800))
		ea.openFiles([]string{p})
	})
	waitFor(t, ea, "the painter", func() bool { return ea.edit.Painter().Mask() != nil })
	const menuBar = 28 // the test driver draws no menu bar; a real window does
	window := float32(1280 * 800)
	onUI(ea, func() {
		s := ea.edit.Painter().Size()
		if share := s.Width * (s.Height - menuBar) / window; share < 0.5 {
			t.Errorf("the canvas is %vx%v: %.0f %% of a 1280x800 window, want at least half", s.Width, s.Height, 100*share)
		}
		ea.edit.SaveLayout(ea.fyneApp.Preferences())
		if got := ea.fyneApp.Preferences().Float("edit.panelOffset"); got < 0.5 {
			t.Errorf("the divider is remembered at %v", got)
		}
		wide := s.Width
		test.Tap(panelButton(t, ea))
		if !ea.edit.Folded() || !ea.fyneApp.Preferences().Bool("edit.panelFolded") {
			t.Fatal("the panel did not fold, or the fold is not remembered")
		}
		if w := ea.edit.Painter().Size().Width; w < wide+250 {
			t.Errorf("folded, the canvas is %v wide (was %v)", w, wide)
		}
		test.Tap(panelButton(t, ea))
		if ea.edit.Folded() {
			t.Error("the panel did not come back")
		}
	})
}

// panelButton is Edit's button that folds its side panel.
func panelButton(t *testing.T, ea *App) *widget.Button {
	var found *widget.Button
	roomtest.Walk(ea.win.Canvas().Content(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Panel" && b.Visible() {
			found = b
		}
	})
	if found == nil {
		t.Fatal("no Panel button")
	}
	return found
}

// The prompt and options a tab was about to send come back after a
// restart, and a profile's defaults applied as it connects do not
// replace them.
func TestDraftsSurviveARestart(t *testing.T) {
	ts := httptest.NewServer(demoservice.New(demoservice.Config{}))
	t.Cleanup(ts.Close)
	a := test.NewTempApp(t)
	o := isolated(t, Options{BaseURL: ts.URL + "/v1"})
	first := newApp(t, a, o)
	onUI(first, func() { first.SelectTab(TabGenerate) })
	waitFor(t, first, "the model list", func() bool { return len(first.generate.Options().Model.Listed()) > 0 })
	onUI(first, func() {
		first.generate.Prompt().SetText("a lighthouse at dusk, long exposure, teal and amber")
		opts := first.generate.Options().Options()
		opts.N, opts.Quality, opts.OutputFormat = 3, "high", "webp"
		first.generate.Options().SetOptions(opts)
		first.saveState()
		first.win.Close()
	})

	second := newApp(t, a, o)
	defer second.win.Close()
	onUI(second, func() { second.SelectTab(TabGenerate) })
	waitFor(t, second, "the model list", func() bool { return len(second.generate.Options().Model.Listed()) > 0 })
	onUI(second, func() {
		got := second.generate.Options().Options()
		if p := second.generate.Prompt().Text; p != "a lighthouse at dusk, long exposure, teal and amber" {
			t.Errorf("the prompt came back as %q", p)
		}
		if got.N != 3 || got.Quality != "high" || got.OutputFormat != "webp" {
			t.Errorf("the options came back as n=%d quality=%q format=%q", got.N, got.Quality, got.OutputFormat)
		}
	})
}

// Switching to Edit selects its prompt, so typing replaces the last
// instruction instead of running on from it.
func TestEditSelectsItsPromptWhenShown(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		ea.SelectTab(TabEdit)
		ea.edit.Prompt().SetText("make the sky stormy")
		ea.SelectTab(TabGenerate)
		ea.SelectTab(TabEdit)
		if got := ea.edit.Prompt().SelectedText(); got != "make the sky stormy" {
			t.Errorf("shown again, the prompt has %q selected", got)
		}
	})
}

// Ctrl+2 under a modal Settings does not switch the tab under it
// (issue 40, item 9); once Settings is closed it does.
func TestTabKeysWaitForAnOpenDialog(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() {
		ea.SelectTab(TabChat)
		ea.showSettings()
		typeShortcut(ea, shortcutTab[TabGenerate])
		if ea.CurrentTab() != TabChat {
			t.Errorf("Ctrl+2 under Settings switched to tab %d", ea.CurrentTab())
		}
		ea.win.Canvas().Overlays().Remove(ea.win.Canvas().Overlays().Top())
		typeShortcut(ea, shortcutTab[TabGenerate])
		if ea.CurrentTab() != TabGenerate {
			t.Errorf("Ctrl+2 with no dialog left tab %d", ea.CurrentTab())
		}
	})
}

// asGenerate is r as Text to image sends it: its events shown on that
// tab's cards, as its Sender's listener shows them.
func asGenerate(ea *App, r jobs.Request) jobs.Request {
	r.Listener = jobview.Listen(ea.work, ea.lib, ea.generate.ShowJob)
	return r
}

// The prompt being generated is the draft kept, without waiting for the
// window to close (#57: after a kill -9 Text to image came back with an
// older draft than the one it was generating).
func TestThePromptSentIsTheDraftKept(t *testing.T) {
	ea := newServedApp(t)
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	waitFor(t, ea, "the model list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	onUI(ea, func() {
		ea.generate.Prompt().SetText("a red kite over a grey sea")
		ea.generate.PrimaryAction()
	})
	waitFor(t, ea, "the draft kept", func() bool {
		return strings.Contains(ea.fyneApp.Preferences().String(draftKey(TabGenerate)), "a red kite over a grey sea")
	})
}
