package ui

import (
	"context"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"easel/assets"
	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/cores"
	"easel/internal/instance"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/quarantine"
	"easel/internal/saver"
	"easel/internal/secrets"
	"easel/internal/session"
	"easel/internal/thumbs"
	"easel/internal/wording"
	"easel/internal/work"
	"easel/ui/batches"
	"easel/ui/chat"
	"easel/ui/chrome"
	"easel/ui/dialogs"
	"easel/ui/edit"
	"easel/ui/gallery"
	"easel/ui/generate"
	"easel/ui/jobview"
	"easel/ui/kit"
	"easel/ui/modelpick"
	"easel/ui/room"
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
	// Files are images to open in Edit's inputs, in order (`easel a.png`,
	// "Open with Easel").
	Files []string
	// Instance, when set, is this window's end of the single-instance
	// socket: files a second start hands over open in Edit, and the window
	// comes forward.
	Instance *instance.Server
	// StateDir is where Easel keeps its own copy of the preferences
	// (statecopy), beside Fyne's; "" keeps none (tests).
	StateDir string
	// Quarantine makes each new thumbnail in a child process of this
	// executable (internal/quarantine), which must call quarantine.Serve
	// first: the real easel does; a test binary does not.
	Quarantine bool
}

// App is the main window: its tabs (rooms), the frame around them
// (banner, status bar, menu), and the services they share. It is the
// rooms' Host and the session's observer; no room knows it.
type App struct {
	services
	opts Options
	// tabset is the four rooms in their tabs, built as they are shown.
	tabset
	// content is the whole window below the menu: banner, tabs, status
	// bar; root holds it in the window, empty until attach.
	content *fyne.Container
	root    *fyne.Container

	// connected is the client the rooms last heard of, so a new
	// connection is told to them once.
	connected *api.Client
	// interrupted are the jobs the journal held at start (cut off by the
	// last kill or close), listed once the tabs are built.
	interrupted []jobs.Info
	// banner and statusBar frame the tabs: app-wide problems above, the
	// profile below.
	banner *chrome.Banner
	status *statusLine
	// firstRun and settings are the open dialogs' forms, for tests.
	firstRun *dialogs.ProfileForm
	settings *dialogs.Settings
	// attached is set once the widgets are in the window; until then
	// nothing may touch the window (see Run), and pending holds what will.
	attached bool
	pending  []func()
	// menus are the window's menus and shortcuts; host is the window
	// as its rooms and dialogs see it.
	menus *menus
	host  *host
	// actions are what the Gallery asks of the other tabs.
	actions *galleryActions
	// feed takes the jobs' events for the window as a whole.
	feed *jobFeed
	// saving serialises saveState: the stop hook runs it on Fyne's event
	// goroutine, while a quit may still be running it on the UI goroutine.
	saving sync.Mutex
}

// Run opens the main window and runs Fyne's event loop until quit. The
// main thread creates the window and its GL context (a tenth of a second
// with a software renderer) while a goroutine, started first, builds the
// widgets and opens the gallery and the account: the two halves of
// start-up overlap instead of following each other. Collection waits
// until the window has painted (holdGC).
//
// The widgets go into the window in Fyne's OnStarted, which it calls on
// the main goroutine once the window exists and before its event loop
// first turns. Nothing of Fyne's own runs beside build until then: its
// caches of text sizes and its animations are not safe to share with the
// loop (go build -race shows both, if attach waits for the loop).
func Run(a fyne.App, opts Options) {
	releaseGC := holdGC()
	loadLanguages()
	ea := newState(a, opts)
	ea.watchdog = quitWatchdog(ea.stateCopy)
	built := make(chan struct{})
	ea.bridge.mu.Lock()
	go func() {
		defer close(built)
		ea.build()
	}()
	ea.newWindow()
	// The layout and drafts are written once more as the loop stops, just
	// before Fyne's last write of the preferences: a SIGTERM can reach
	// Fyne's own handler too, which stops the loop at once, and a
	// saveState that ran after that last write would leave the file
	// half-written (the draft lost).
	a.Lifecycle().SetOnStopped(ea.saveState)
	a.Lifecycle().SetOnStarted(func() {
		<-built
		ea.quitOnTerm()
		ea.attach()
		fitToScreen(ea.win)
		// Paint now: the window was first painted empty, when Show
		// made it, and its loop would paint again at its first 60 Hz
		// tick (17 ms on). Show on a shown window repaints at once
		// (Fyne 2.7); with GLFW's static gravity on X11 its move to
		// the same place is a no-op.
		ea.win.Show()
		releaseGC()
		ea.bridge.mu.Unlock()
	})
	ea.win.ShowAndRun()
}

// quitOnTerm makes SIGTERM and SIGINT (a logout, kill, systemd, Ctrl+C
// in the terminal that started Easel) leave as Ctrl+Q does, with the
// drafts and layout saved, and without the question about running jobs:
// there is no one to answer it, and the journal lists them at the next
// start. Fyne's own handler quits without saving, and its queued quit
// raced the event queue's shutdown ("send on closed channel"): it is
// replaced here, once the window's loop runs.
func (a *App) quitOnTerm() {
	signal.Reset(syscall.SIGTERM, syscall.SIGINT)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sigs
		signal.Stop(sigs)
		a.armQuit() // before the UI goroutine is asked: it may be stuck
		a.bridge.Do(a.leave)
	}()
}

// leave ends the app without asking: drafts and layout saved, what was
// deleted this session emptied. A signal and Settings' Restart now leave
// this way.
func (a *App) leave() {
	a.armQuit()
	a.saveState()
	a.emptyTrash()
	a.stateCopy.Write()
	a.fyneApp.Quit()
}

// newState is the App before its window and widgets exist.
func newState(a fyne.App, opts Options) *App {
	// Easel's copy of the preferences first: it puts them back when
	// Fyne's file was emptied, before anything reads them.
	stateCopy := openStateCopy(a, opts.StateDir)
	upgradePrefs(a.Preferences())
	if choice := a.Preferences().String(kit.PrefTheme); choice != kit.ThemeSystem || kit.OneWeight() {
		kit.ApplyTheme(a, choice)
	}
	// Go's scheduler has no priorities: image work is kept to the
	// cores but one, so a callback never waits for a P behind it.
	cores.Reserve(1)
	b := NewBridge()
	app := &App{services: services{fyneApp: a, bridge: b, work: work.New(b.Do), stateCopy: stateCopy}, opts: opts}
	app.host = newHost(app)
	app.feed = &jobFeed{s: &app.services, gallery: app.host, state: app}
	return app
}

// newWindow makes the window, still empty, at its remembered size; this
// is all the main thread needs before it can show it.
func (a *App) newWindow() {
	fa := a.fyneApp
	fa.SetIcon(fyne.NewStaticResource("icon.png", assets.WindowIcon))
	a.win = fa.NewWindow("Easel")
	a.root = container.NewStack()
	a.win.SetContent(a.root)
	a.win.Resize(savedSize(fa.Preferences()))
	a.win.SetOnClosed(func() {
		a.armQuit()
		// Loads under way stop; a write the user asked for (a favourite,
		// a conversation's settings) is given a moment to land.
		a.work.Close(3 * time.Second)
		a.saveState()
		a.emptyTrash()
		a.stateCopy.Write()
	})
	a.win.SetCloseIntercept(a.feed.confirmClose)
	// Keys no field takes: Esc and Enter answer the dialog on top.
	a.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) { answerDialog(a.win, k) })
}

// build makes the widgets, opens the gallery and connects the account.
// It touches no window (Run calls it off the main thread) and holds the
// bridge: goroutines it starts that want to update widgets wait until it
// is done, so nothing here may call bridge.Do synchronously.
func (a *App) build() {
	a.lib, a.libErr = openLibrary()
	if a.lib != nil {
		a.runner = saver.Runner(a.lib, a.feed.onJobEvent)
		getenv := a.opts.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		poll, _ := time.ParseDuration(getenv("EASEL_BATCH_POLL")) // tests: the demo's minutes
		a.batches = batches.New(a.host, poll)
		a.thumbs = thumbs.New(a.lib.Thumbnails())
		if a.opts.Quarantine {
			a.lib.Thumbnails().Quarantine(quarantine.Maker(library.MakeThumbnail))
		}
	}
	a.session = session.New(session.Options{
		ConfigPath: a.opts.ConfigPath, Keys: a.opts.Keys, Getenv: a.opts.Getenv,
		Demo: a.opts.Demo, BaseURL: a.opts.BaseURL, Profile: a.opts.Profile,
	}, sessionObserver{a}, a.bridge.Do)
	if a.lib != nil {
		// The journal is read before the runner sends anything: what it
		// holds was cut off by the last kill or close, and is written in
		// the ledger at its profile's prices as may have been billed.
		a.interrupted, _ = saver.Journal{Lib: a.lib}.Interrupted(a.work.Context(), func(id string) pricing.Table {
			p, _ := a.session.Find(id)
			return p.Prices
		})
	}
	a.models = modelpick.NewRegistry(func() { a.session.RefreshModels(true) })
	a.buildUI()
	// The tab the window opens on is selected before anything is laid
	// out, so the tab indicator is placed rather than animated (Fyne's
	// animations belong to the UI goroutine, which build, see Run, is
	// not). Its widgets go in once it has its size: laid out at size
	// zero first, every wrapped label would be wrapped a word a line.
	opening := lastTab(a.fyneApp.Preferences(), len(a.rooms))
	if len(a.opts.Files) > 0 {
		opening = TabEdit // `easel a.png`: the files go to Edit
	}
	a.tabs.SelectIndex(opening)
	a.content = container.NewBorder(a.banner.Box, a.status.bar.Box, nil, nil, a.tabs)
	a.banner.OnResize = a.content.Refresh
	a.content.Resize(contentArea(savedSize(a.fyneApp.Preferences())))
	a.ensureBuilt(opening)
	if len(a.opts.Files) > 0 {
		a.edit.AddFiles(a.opts.Files)
	}
	if srv := a.opts.Instance; srv != nil {
		// Files from a second start wait on the bridge until the window
		// is attached, like every other update.
		srv.Serve(func(m instance.Message) { a.bridge.Do(func() { a.handOver(m) }) })
	}
	if a.lib != nil {
		if notes := a.lib.Notices(); len(notes) > 0 {
			root := a.lib.Root()
			a.banner.Show(chrome.BannerLibrary, strings.Join(notes, " "), catalogue.T("Show folder"), func() {
				_ = a.fyneApp.OpenURL(&url.URL{Scheme: "file", Path: root})
			})
		}
	}
	if a.lib != nil {
		a.checkLibrary()
	}
	if err := a.session.Start(); err != nil {
		a.banner.Show(chrome.BannerConfig, err.Error(), "", nil)
	}
	a.listInterrupted()
	if a.batches != nil {
		a.batches.Resume() // its reading starts now; the cards wait for the bridge
	}
}

// checkLibrary runs the gallery index's quick integrity check off the
// UI goroutine as the window opens, and says in the banner when the
// index is damaged: every paid request is refused until it is mended
// (library.CanSave), and the user should hear why before trying one.
func (a *App) checkLibrary() {
	lib := a.lib
	a.work.Go(func(ctx context.Context) {
		err := lib.Check(ctx)
		if err == nil {
			// Then the credentials of images saved before Easel read
			// them (an upgraded gallery), for the filter by them.
			if _, err := library.ReadCredentials(ctx, lib); err != nil && ctx.Err() == nil {
				slog.Warn("gallery: the credentials of older images could not be read", "err", err)
			}
			return
		}
		a.bridge.Do(func() {
			a.banner.Show(chrome.BannerLibrary, wording.Sentence(err.Error()), catalogue.T("Show folder"), func() {
				_ = a.fyneApp.OpenURL(&url.URL{Scheme: "file", Path: lib.Root()})
			})
		})
	})
}

// listInterrupted puts the jobs the last kill or close cut off on the
// tabs they were sent from, each with its prompt, settings and Retry,
// and says so once in the banner.
func (a *App) listInterrupted() {
	if len(a.interrupted) == 0 {
		return
	}
	for _, info := range a.interrupted {
		tab := TabGenerate
		if info.Request.Edit != nil {
			tab = TabEdit
		}
		a.ensureBuilt(tab)
		e := jobs.Event{Job: info, State: jobs.Interrupted, ItemIDs: info.Kept}
		var results []jobview.Result
		if len(info.Kept) > 0 {
			_, results = jobview.Prepare(a.work.Context(), a.lib, e)
		}
		if tab == TabEdit {
			a.edit.ShowJob(e, nil, results)
		} else {
			a.generate.ShowJob(e, nil, results)
		}
		a.feed.showJobEvent(e)
	}
	var n, answered, left int
	for _, info := range a.interrupted {
		switch {
		case info.Left != "":
			left++
		case info.Answered:
			answered++
		default:
			n++
		}
	}
	var said []string
	switch {
	case n == 1:
		said = append(said, catalogue.T("A request was still at the service when Easel last closed: it is listed with Retry where it was sent from. The service may have charged for it."))
	case n > 1:
		said = append(said, catalogue.F("%d requests were still at the service when Easel last closed: they are listed in Text to image and Edit with Retry. The service may have charged for them.", n))
	}
	if answered > 0 {
		said = append(said, catalogue.N("%d request was answered and charged, but its images could not be saved then: it is listed where it was sent from.", answered, answered))
	}
	if left > 0 {
		said = append(said, catalogue.N("%d requests of a batch were not made: they are listed with Retry in Text to image and Edit, and nothing was charged for them.", left, left))
	}
	a.banner.Show(chrome.BannerInterrupted, strings.Join(said, " "), "", nil)
	a.interrupted = nil
}

// contentArea is the part of a window of the given size that its content
// gets: less the window's padding and the menu bar Fyne draws at the top.
func contentArea(window fyne.Size) fyne.Size {
	menuBar := fyne.MeasureText("File", theme.TextSize(), fyne.TextStyle{}).Height + theme.InnerPadding()
	return window.SubtractWidthHeight(2*theme.Padding(), 2*theme.Padding()+menuBar)
}

// attach puts the built widgets in the window, on the UI goroutine: the
// content, the menu and shortcuts, the focus, and what build left for
// the window (onWindow): the title, the first-run or plain-http dialog.
func (a *App) attach() {
	// The menu first: it takes its height from the content area, and the
	// content then goes in at the size it was laid out for. It goes into
	// root rather than through SetContent, which lays the whole tree out
	// twice more (at its minimum size, then at the window's), and Add
	// lays it out only if the size differs.
	a.menus = &menus{services: &a.services, window: a, edit: a.edit, chat: a.chat, gallery: a.gallery,
		spend: a.status, feed: a.feed, dialogHost: a.host}
	a.win.SetMainMenu(a.menus.mainMenu())
	a.root.Add(a.content)
	canvas.Refresh(a.root)
	a.menus.addShortcuts()
	// Files dropped anywhere on the window join Edit's inputs, in order.
	a.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		var paths []string
		for _, u := range uris {
			if u.Scheme() == "file" {
				paths = append(paths, u.Path())
			}
		}
		switch {
		case len(paths) == 0:
		case a.CurrentTab() == TabChat && a.built[TabChat]:
			// On Chat, images go with the message being written.
			a.chat.AttachFiles(paths)
		case a.CurrentTab() == TabGallery && a.built[TabGallery]:
			// On the Gallery, they join it as imported images.
			a.gallery.Import(paths)
		default:
			a.openFiles(paths)
		}
	})
	a.tabs.OnSelected = func(*container.TabItem) {
		a.ensureBuilt(a.tabs.SelectedIndex())
		a.focusCurrent()
	}
	a.focusCurrent()
	a.focused = true
	a.fyneApp.Lifecycle().SetOnEnteredForeground(func() { a.focused = true })
	a.fyneApp.Lifecycle().SetOnExitedForeground(func() { a.focused = false })
	a.attached = true
	for _, f := range a.pending {
		f()
	}
	a.pending = nil
}

// onWindow runs f, which touches the window (a title, a dialog), now if
// the widgets are in it, or else as soon as attach puts them there.
func (a *App) onWindow(f func()) {
	if !a.attached {
		a.pending = append(a.pending, f)
		return
	}
	f()
}

// windowTitle names the connected profile as its user wrote it, so two
// windows on two accounts are told apart in the task bar.
func windowTitle(p config.Profile) string {
	if p.Name == "" {
		return "Easel"
	}
	return "Easel — " + p.Name
}

func (a *App) buildUI() {
	a.chat = chat.New(a.host)
	a.generate = generate.New(a.host, a.batches)
	a.edit = edit.New(a.host)
	a.actions = &galleryActions{s: &a.services, host: a.host, chat: a.chat, generate: a.generate, edit: a.edit, show: a.SelectTab, build: a.ensureBuilt}
	a.gallery = gallery.New(a.host, a.actions)
	a.rooms = []room.Room{a.chat, a.generate, a.edit, a.gallery}
	a.prefs = a.fyneApp.Preferences()

	icons := tabIcons()
	items := make([]*container.TabItem, len(a.rooms))
	for i := range a.rooms {
		items[i] = container.NewTabItemWithIcon(tabTitles()[i], icons[i], container.NewStack())
	}
	a.built = make([]bool, len(a.rooms))
	a.tabs = container.NewAppTabs(items...)
	a.banner = chrome.NewBanner()
	a.status = newStatusLine(&a.services, a.host, a.showSettings)
	a.host.items, a.host.spend = a.actions, a.status // made after the host, which they are handed
	a.feed.spend = a.status
}

// SelectTab shows tab i (one of the tab constants) and focuses its main
// input.
func (a *App) SelectTab(i int) {
	if i < 0 || i >= len(a.rooms) {
		return
	}
	if a.tabs.SelectedIndex() == i {
		a.focusCurrent()
		return
	}
	a.tabs.SelectIndex(i) // OnSelected focuses
}

func (a *App) focusCurrent() {
	i := a.tabs.SelectedIndex()
	if i < 0 {
		return
	}
	a.fyneApp.Preferences().SetInt(prefLastTab, i)
	if f := a.rooms[i].FocusTarget(); f != nil {
		a.win.Canvas().Focus(f)
		if r, ok := a.rooms[i].(interface{ Focused() }); ok {
			r.Focused()
		}
	}
}
