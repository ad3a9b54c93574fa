package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"easel/assets"
	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/jobs"
	"easel/internal/secrets"
)

// AppID is Easel's application id; Fyne keys preferences and storage by
// it, and FyneApp.toml carries the same value for packaging.
const AppID = "dev.easel.app"

// defaultWindowSize is the size of the first window, before the user has
// resized it: room for a form beside a large preview.
var defaultWindowSize = fyne.NewSize(1280, 800)

// Options says how the window starts.
type Options struct {
	// Demo opens the window on the built-in demo service, started in this
	// process.
	Demo bool
	// BaseURL opens the window on a keyless service at this address, as
	// the demo profile (tests point it at their own fake service).
	BaseURL string
	// Profile is the profile to open on (--profile), by name or id.
	Profile string
	// ConfigPath is the profiles file; "" is the user's config folder.
	ConfigPath string
	// Keys is where keys are kept; nil is the OS keyring.
	Keys *secrets.Keys
	// Getenv reads OPENAI_BASE_URL and OPENAI_API_KEY; nil is os.Getenv.
	Getenv func(string) string
}

// page is one tab of the main window. Each tab is a small struct that
// builds its own widgets and names the widget that should take the keyboard
// focus when the tab is shown.
type page interface {
	// buildUI makes the tab's widgets; it is called once.
	buildUI() fyne.CanvasObject
	// focusTarget is the main input of the tab.
	focusTarget() fyne.Focusable
	// primaryAction is what Ctrl+Enter does on this tab (send, generate).
	primaryAction()
}

// App is the main window and its tabs.
type App struct {
	fyneApp fyne.App
	win     fyne.Window
	opts    Options
	bridge  *Bridge
	tabs    *container.AppTabs
	pages   []page
	// built marks the tabs whose widgets exist: a tab is built the first
	// time it is shown, so start-up pays only for the tab on screen.
	built []bool

	svc    services
	acct   account
	models modelCache
	// banner and statusBar frame the tabs: app-wide problems above, the
	// profile below.
	banner    *banner
	statusBar *statusBar
	// firstRun and settings are the open dialogs' forms, for tests.
	firstRun *profileForm
	settings *settingsView
	// focused is whether the window is in the foreground, for notifications.
	focused bool

	chat     *chatTab
	generate *generateTab
	edit     *editTab
	gallery  *galleryTab
}

// New builds the main window on a Fyne app. The caller runs it with
// ShowAndRun; tests use Window() with the Fyne test driver instead.
func New(a fyne.App, opts Options) *App {
	ea := &App{fyneApp: a, opts: opts, bridge: NewBridge(),
		models: modelCache{lists: map[string][]api.Model{}, errs: map[string]error{}}}
	ea.build()
	return ea
}

// build makes the window and connects its account. The goroutines it
// starts may want to update widgets before it is done; holding the bridge
// makes them wait, so nothing here may call bridge.Do synchronously.
func (ea *App) build() {
	a := ea.fyneApp
	ea.bridge.mu.Lock()
	defer ea.bridge.mu.Unlock()
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	ea.win = a.NewWindow("Easel")
	ea.svc.lib, ea.svc.libErr = openLibrary()
	if ea.svc.lib != nil {
		ea.svc.runner = jobs.New(nil, librarySaver{lib: ea.svc.lib}, ea.onJobEvent, jobs.Options{})
	}
	ea.buildUI()
	ea.restoreState()
	ea.startAccount()
	ea.focused = true
	a.Lifecycle().SetOnEnteredForeground(func() { ea.focused = true })
	a.Lifecycle().SetOnExitedForeground(func() { ea.focused = false })
	ea.win.SetOnClosed(ea.saveState)
	ea.win.SetCloseIntercept(ea.confirmClose)
	if ea.acct.firstRun {
		ea.showFirstRun()
	}
}

// windowTitle names the connected profile, so two windows on two accounts
// are told apart in the task bar.
func windowTitle(p config.Profile) string {
	if p.Name == "" {
		return "Easel"
	}
	return "Easel — " + strings.ToLower(p.Name[:1]) + p.Name[1:]
}

// Window is the main window, for tests and for dialogs.
func (a *App) Window() fyne.Window { return a.win }

// ShowAndRun shows the window and runs Fyne's event loop until quit.
func (a *App) ShowAndRun() {
	a.win.ShowAndRun()
}

func (a *App) buildUI() {
	a.chat = &chatTab{app: a}
	a.generate = &generateTab{app: a}
	a.edit = &editTab{app: a}
	a.gallery = &galleryTab{app: a}
	a.pages = []page{a.chat, a.generate, a.edit, a.gallery}

	icons := tabIcons()
	items := make([]*container.TabItem, len(a.pages))
	for i := range a.pages {
		items[i] = container.NewTabItemWithIcon(tabTitles[i], icons[i], container.NewStack())
	}
	a.built = make([]bool, len(a.pages))
	a.tabs = container.NewAppTabs(items...)
	a.tabs.OnSelected = func(*container.TabItem) {
		a.ensureBuilt(a.tabs.SelectedIndex())
		a.focusCurrent()
	}
	a.banner = newBanner()
	a.statusBar = newStatusBar(a)
	a.win.SetContent(container.NewBorder(a.banner.box, a.statusBar.box, nil, nil, a.tabs))
	a.win.SetMainMenu(a.mainMenu())
	a.addShortcuts()
}

// ensureBuilt builds tab i's widgets the first time it is shown.
func (a *App) ensureBuilt(i int) {
	if i < 0 || a.built[i] {
		return
	}
	a.built[i] = true
	holder := a.tabs.Items[i].Content.(*fyne.Container)
	holder.Objects = []fyne.CanvasObject{a.pages[i].buildUI()}
	holder.Refresh()
}

// SelectTab shows tab i (one of the tab constants) and focuses its main
// input.
func (a *App) SelectTab(i int) {
	if i < 0 || i >= len(a.pages) {
		return
	}
	if a.tabs.SelectedIndex() == i {
		a.focusCurrent()
		return
	}
	a.tabs.SelectIndex(i) // OnSelected focuses
}

// CurrentTab is the index of the shown tab.
func (a *App) CurrentTab() int { return a.tabs.SelectedIndex() }

func (a *App) focusCurrent() {
	i := a.tabs.SelectedIndex()
	if i < 0 {
		return
	}
	a.fyneApp.Preferences().SetInt(prefLastTab, i)
	if f := a.pages[i].focusTarget(); f != nil {
		a.win.Canvas().Focus(f)
	}
}

func (a *App) primaryAction() {
	if i := a.tabs.SelectedIndex(); i >= 0 && a.built[i] {
		a.pages[i].primaryAction()
	}
}
