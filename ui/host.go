package ui

import (
	"context"
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2/dialog"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/instance"
	"easel/internal/library"
	"easel/internal/markdown"
	"easel/ui/board"
	"easel/ui/chat"
	"easel/ui/chrome"
	"easel/ui/dialogs"
	"easel/ui/edit"
	"easel/ui/gallery"
	"easel/ui/generate"
	"easel/ui/kit"
	"easel/ui/room"
)

// host is the window as its rooms and dialogs see it: the services they
// share, and the verbs that reach beyond a tab, which the App gives it
// as functions (hostVerbs). Each room and dialog is handed the one host
// and sees it through the narrow interface it declares; host is all of
// them at once.
type host struct {
	*services
	// tabs are the window's rooms: the gallery once built, a tab's
	// prompt.
	tabs *tabset
	// window is what the host asks of the window itself.
	window hostWindow
	// items are the gallery's verbs on an item (Edit this, More like
	// this), and spend the status line's spend; both are made after the
	// host (App.buildUI), as they are handed it.
	items itemVerbs
	spend interface{ refreshSpend(askService bool) }
}

// hostWindow is what the host asks of the window: to show a tab, to put
// the keys in the tab shown, to open Settings, to end without asking
// (drafts and layout saved).
type hostWindow interface {
	SelectTab(tab int)
	focusCurrent()
	showSettings()
	leave()
}

// itemVerbs are the Gallery's verbs on an item, as a job card uses them.
type itemVerbs interface {
	EditThis(it library.Item)
	MoreLikeThis(it library.Item)
}

var (
	_ generate.Host   = (*host)(nil)
	_ room.SendHost   = (*host)(nil)
	_ gallery.Host    = (*host)(nil)
	_ chat.Host       = (*host)(nil)
	_ board.Host      = (*host)(nil)
	_ dialogs.Host    = (*host)(nil)
	_ room.BudgetHost = (*host)(nil)
)

// newHost is a's host: its services, its tabs and the window.
func newHost(a *App) *host {
	return &host{services: &a.services, tabs: &a.tabset, window: a}
}

// SaveImageAs offers to write an image the gallery could not take to a
// file of the user's choice.
func (a *host) SaveImageAs(img api.Image, prompt string, n int) {
	dialogs.SaveAs(a, img, dialogs.UnsavedName(prompt, img.Format, n), nil)
}

// OpenItem shows a gallery item large: the Gallery, with its details.
func (a *host) OpenItem(id int64) {
	a.window.SelectTab(TabGallery)
	a.tabs.builtGallery().OpenID(id)
}

// ShowSettings opens Settings (Ctrl+,).
func (a *host) ShowSettings() { a.window.showSettings() }

// openLibrary opens the gallery in its folder.
func openLibrary() (*library.Library, error) {
	dir, err := library.Dir()
	if err != nil {
		return nil, err
	}
	return library.Open(dir)
}

// sessionObserver is how the session tells the window what changed; it
// runs on the UI goroutine (or in build, which holds the bridge).
type sessionObserver struct{ a *App }

// Changed tells the rooms, the status bar and the title.
func (o sessionObserver) Changed() {
	a := o.a
	s := a.session
	if c := s.Client(); c != nil && c != a.connected {
		a.connected = c
		p := s.Current()
		if a.runner != nil {
			a.runner.SetLimit(p.ID, p.MaxJobs)
		}
		a.onWindow(func() { a.win.SetTitle(windowTitle(p)) })
		if a.banner.Text(chrome.BannerKeyring) != "" { // still shown: reword it
			a.wordKeyringBanner()
		}
		a.eachBuilt(func(i int) { a.rooms[i].Connected() })
		a.status.refreshSpend(true)
	}
	a.eachBuilt(func(i int) { a.rooms[i].ServiceChanged() })
	a.status.refresh()
	if a.settings != nil {
		a.settings.Refresh()
	}
}

// ModelsChanged gives every model picker the connected profile's list,
// with the image models typed before that answered on this key though
// the service does not list them (a few rows read by index, as the
// sender reads the memory).
func (o sessionObserver) ModelsChanged() {
	ms, err := o.a.session.Models()
	if lib := o.a.lib; lib != nil && err == nil && ms != nil {
		p := o.a.session.Current()
		if served, serr := lib.Memory().ServedModels(o.a.work.Context(), p.ID, p.UsingGroup()); serr == nil {
			ms = api.WithServed(ms, served)
		}
	}
	o.a.models.Show(ms, err)
}

// KeyringFailed raises the keyring banner.
func (o sessionObserver) KeyringFailed(error) { o.a.wordKeyringBanner() }

// AskPlainHTTP asks before a key travels in clear text.
func (o sessionObserver) AskPlainHTTP(p config.Profile, agreed func()) {
	o.a.onWindow(func() { dialogs.AskPlainHTTP(o.a.win, p, agreed) })
}

// FirstRun opens the welcome dialog.
func (o sessionObserver) FirstRun() {
	o.a.onWindow(func() { o.a.firstRun = dialogs.ShowFirstRun(o.a.host) })
}

// Failed shows what could not be done.
func (o sessionObserver) Failed(err error) {
	o.a.onWindow(func() { dialog.ShowError(err, o.a.win) })
}

// pickProfile connects the profile the user picked in the status bar.
// wordKeyringBanner words the keyring banner for the connected profile:
// the demo and the environment's profile need no keyring, so only a
// stored profile is offered a key kept in memory for the session.
func (a *App) wordKeyringBanner() {
	err := a.session.Keys().Err()
	if err == nil {
		return
	}
	cause := dialogs.ShortCause(err)
	if p := a.session.Current(); p.ID != "" && !p.ReadOnly {
		a.banner.Show(chrome.BannerKeyring, catalogue.F("The system keyring is unavailable, so keys cannot be saved or read (%s). You can keep a key in memory for this session only.", cause),
			catalogue.T("Enter a key for this session…"), func() { dialogs.AskSessionKey(a.host, a.session.Current()) })
		return
	}
	a.banner.Show(chrome.BannerKeyring, catalogue.F("The system keyring is unavailable, so keys cannot be saved or read (%s). A profile you add or pick can keep its key in memory for this session.", cause), "", nil)
}

// showSettings opens Settings (Ctrl+,).
func (a *App) showSettings() {
	a.settings = dialogs.ShowSettings(a.host, func() { a.settings = nil })
}

// galleryActions are what the Gallery asks of the other tabs: each
// fills a tab and shows it. It holds those tabs and the little it needs
// of the window, not the App.
type galleryActions struct {
	s        *services
	host     *host
	chat     *chat.Room
	generate *generate.Room
	edit     *edit.Room
	// show shows a tab (building it first); build builds one unseen.
	show, build func(tab int)
}

// Reuse fills Text to image with an item's prompt and settings and shows
// that tab, ready for a variation.
func (g *galleryActions) Reuse(it library.Item) {
	g.show(TabGenerate)
	g.generate.Reuse(it.Prompt, it.Params.ImageOptions)
}

// SendToEdit adds an item to Edit's reference images, after those
// already there, and shows that tab.
func (g *galleryActions) SendToEdit(it library.Item) {
	g.toEdit(it, func(in edit.Input) { g.edit.Add(in) })
}

// SendToChat attaches an item to the chat message being written, and
// shows Chat.
func (g *galleryActions) SendToChat(it library.Item) {
	path := g.s.lib.Path(it)
	g.show(TabChat)
	g.s.work.Go(func(ctx context.Context) {
		data, err := os.ReadFile(path)
		g.s.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot read image %d: %w"), it.ID, err), g.s.win)
				return
			}
			g.chat.Attach(dialogs.ExportName(it, it.Format), data)
		})
	})
}

// toEdit reads an item's file and makes it an input off the UI goroutine,
// then shows Edit and hands the input to put.
func (g *galleryActions) toEdit(it library.Item, put func(edit.Input)) {
	path := g.s.lib.Path(it)
	g.s.work.Go(func(ctx context.Context) {
		data, err := os.ReadFile(path)
		in := edit.NewInput(dialogs.ExportName(it, it.Format), "image/"+it.Format, data, it.ID, nil) // named by its prompt
		g.s.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot read image %d: %w"), it.ID, err), g.s.win)
				return
			}
			g.show(TabEdit)
			put(in)
		})
	})
}

// EditItem makes the gallery item id Edit's first image (a job card's
// "Edit this result"), read off the UI goroutine.
func (a *host) EditItem(id int64) { a.withItem(id, a.items.EditThis) }

// withItem reads gallery item id off the UI goroutine and hands it to
// then on it, or says why it could not be read: what a job card's
// buttons do with a result they know only by its id.
func (a *host) withItem(id int64, then func(library.Item)) {
	if a.lib == nil {
		return
	}
	a.work.Go(func(ctx context.Context) {
		it, err := a.lib.Get(ctx, id)
		a.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot open image %d: %w"), id, err), a.win)
				return
			}
			then(it)
		})
	})
}

// EditThis makes an item Edit's only image (what was there is one Undo
// away) and shows that tab: an edit of this picture, not of the
// references left from the last.
func (g *galleryActions) EditThis(it library.Item) { g.toEdit(it, g.edit.StartFrom) }

// ExpandCanvas makes an item Edit's only image and asks how to widen it.
func (g *galleryActions) ExpandCanvas(it library.Item) {
	g.toEdit(it, func(in edit.Input) {
		g.edit.ExpandFirst()
		g.edit.StartFrom(in)
	})
}

// Export asks where and how to export an item.
func (g *galleryActions) Export(it library.Item) {
	dialogs.Export(g.host, it, g.s.lib.Path(it), nil)
}

// ExportMany asks where and how to export items, then exports them with
// a progress bar.
func (g *galleryActions) ExportMany(items []library.Item) {
	dialogs.ExportMany(g.host, items, g.s.lib.Path, nil)
}

// UsePrompt implements chat.Host: Chat's "Use as prompt" fills Text to
// image's or Edit's prompt with the reply as plain text (its markdown
// taken out) and shows that tab, saying what it replaced; Ctrl+Z in the
// prompt brings the old text back.
func (a *host) UsePrompt(target, text string) {
	text = strings.TrimSpace(markdown.Text(markdown.Parse(text)))
	tab := TabGenerate
	if target == room.TargetEdit {
		tab = TabEdit
	}
	a.window.SelectTab(tab) // built by now
	prompt, status := a.tabs.prompt(tab)
	old := prompt.Text
	prompt.SetText(text)
	if strings.TrimSpace(old) != "" && old != text {
		status(catalogue.F("The prompt now holds the reply, in place of “%s”.", kit.Shorten(old, 60)), func() { prompt.SetText(old) })
	}
	a.window.focusCurrent()
}

// openFiles puts image files into Edit's inputs, in order, and shows
// Edit; the files are read off the UI goroutine.
func (a *App) openFiles(paths []string) {
	a.SelectTab(TabEdit)
	a.edit.AddFiles(paths)
}

// handOver takes what a second start of Easel handed this window: its
// files go to Edit, and the window comes forward.
func (a *App) handOver(m instance.Message) {
	if len(m.Files) > 0 {
		a.openFiles(m.Files)
	}
	a.win.RequestFocus()
}

// groupLabels are a profile's groups as the status bar lists them, and
// the one in use; the profile's own unlabelled key reads "own key".
func groupLabels(p config.Profile) ([]string, string) {
	if len(p.Groups) == 0 {
		return nil, ""
	}
	label := func(g string) string {
		if g == "" {
			return ownKeyLabel()
		}
		return g
	}
	var out []string
	for _, g := range p.KeyGroups() {
		out = append(out, label(g))
	}
	return out, label(p.UsingGroup())
}

// ownKeyLabel names a profile's own key when it has no group label.
func ownKeyLabel() string { return catalogue.T("own key") }

// pickGroup switches the connected profile to one of its groups' keys.
