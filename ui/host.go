package ui

import (
	"context"
	"easel/internal/catalogue"
	"easel/internal/markdown"
	"fmt"
	"image"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/imageio"
	"easel/internal/instance"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/session"
	"easel/internal/thumbs"
	"easel/ui/chrome"
	"easel/ui/dialogs"
	"easel/ui/edit"
	"easel/ui/jobview"
	"easel/ui/kit"
	"easel/ui/modelpick"
	"easel/ui/room"
)

// The App is the Host of its rooms and dialogs.

// Window is the main window, for tests and for dialogs.
func (a *App) Window() fyne.Window { return a.win }

// Do runs f on the UI goroutine, through the bridge.
func (a *App) Do(f func()) { a.bridge.Do(f) }

// Session is the connected service.
func (a *App) Session() *session.Session { return a.session }

// Runner runs the window's jobs; nil without a gallery.
func (a *App) Runner() *jobs.Runner { return a.runner }

// Library is the gallery; nil when it could not be opened.
func (a *App) Library() *library.Library { return a.lib }

// LibraryErr is why the gallery could not be opened.
func (a *App) LibraryErr() error { return a.libErr }

// Thumbs loads the gallery's thumbnails.
func (a *App) Thumbs() *thumbs.Service { return a.thumbs }

// Models makes model pickers fed by the connected profile's list.
func (a *App) Models() *modelpick.Registry { return a.models }

// Clipboard is the system clipboard.
func (a *App) Clipboard() fyne.Clipboard { return a.fyneApp.Clipboard() }

// SaveImageAs offers to write an image the gallery could not take to a
// file of the user's choice.
func (a *App) SaveImageAs(img api.Image, prompt string, n int) {
	dialogs.SaveAs(a, img, dialogs.UnsavedName(prompt, img.Format, n), nil)
}

// OpenItem shows a gallery item large: the Gallery, with its details.
func (a *App) OpenItem(id int64) {
	a.SelectTab(TabGallery)
	a.gallery.OpenID(id)
}

// ShowSettings opens Settings (Ctrl+,).
func (a *App) ShowSettings() { a.showSettings() }

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
		a.refreshSpend(true)
	}
	a.eachBuilt(func(i int) { a.rooms[i].ServiceChanged() })
	a.refreshStatusBar()
	if a.settings != nil {
		a.settings.Refresh()
	}
}

// ModelsChanged gives every model picker the connected profile's list.
func (o sessionObserver) ModelsChanged() { o.a.models.Show(o.a.session.Models()) }

// KeyringFailed raises the keyring banner.
func (o sessionObserver) KeyringFailed(error) { o.a.wordKeyringBanner() }

// AskPlainHTTP asks before a key travels in clear text.
func (o sessionObserver) AskPlainHTTP(p config.Profile, agreed func()) {
	o.a.onWindow(func() { dialogs.AskPlainHTTP(o.a.win, p, agreed) })
}

// FirstRun opens the welcome dialog.
func (o sessionObserver) FirstRun() {
	o.a.onWindow(func() { o.a.firstRun = dialogs.ShowFirstRun(o.a) })
}

// Failed shows what could not be done.
func (o sessionObserver) Failed(err error) {
	o.a.onWindow(func() { dialog.ShowError(err, o.a.win) })
}

// eachBuilt calls f with the index of every built room.
func (a *App) eachBuilt(f func(i int)) {
	for i := range a.rooms {
		if a.built != nil && a.built[i] {
			f(i)
		}
	}
}

func (a *App) refreshStatusBar() {
	var names []string
	for _, p := range a.session.Profiles() {
		names = append(names, p.Name)
	}
	a.statusBar.Show(names, a.session.Current().Name, a.session.StatusText())
	a.statusBar.ShowGroups(groupLabels(a.session.Current()))
}

// pickProfile connects the profile the user picked in the status bar.
func (a *App) pickProfile(name string) {
	s := a.session
	if p, ok := s.Find(name); ok && (p.ID != s.Current().ID || s.Client() == nil) {
		s.Activate(p)
	}
}

// wordKeyringBanner words the keyring banner for the connected profile:
// the demo and the environment's profile need no keyring, so only a
// stored profile is offered a key kept in memory for the session.
func (a *App) wordKeyringBanner() {
	err := a.session.KeyringErr()
	if err == nil {
		return
	}
	cause := dialogs.ShortCause(err)
	if p := a.session.Current(); p.ID != "" && !p.ReadOnly {
		a.banner.Show(chrome.BannerKeyring, catalogue.F("The system keyring is unavailable, so keys cannot be saved or read (%s). You can keep a key in memory for this session only.", cause),
			catalogue.T("Enter a key for this session…"), func() { dialogs.AskSessionKey(a, a.session.Current()) })
		return
	}
	a.banner.Show(chrome.BannerKeyring, catalogue.F("The system keyring is unavailable, so keys cannot be saved or read (%s). A profile you add or pick can keep its key in memory for this session.", cause), "", nil)
}

// showSettings opens Settings (Ctrl+,).
func (a *App) showSettings() {
	a.settings = dialogs.ShowSettings(a, func() { a.settings = nil })
}

// galleryActions are what the Gallery asks of the other tabs.
type galleryActions struct{ a *App }

// Reuse fills Text to image with an item's prompt and settings and shows
// that tab, ready for a variation.
func (g galleryActions) Reuse(it library.Item) {
	g.a.SelectTab(TabGenerate)
	g.a.generate.Reuse(it.Prompt, it.Params.ImageOptions)
}

// SendToEdit adds an item to Edit's reference images, after those
// already there, and shows that tab.
func (g galleryActions) SendToEdit(it library.Item) {
	g.a.toEdit(it, func(in edit.Input) { g.a.edit.Add(in) })
}

// SendToChat attaches an item to the chat message being written, and
// shows Chat.
func (g galleryActions) SendToChat(it library.Item) {
	a, path := g.a, g.a.lib.Path(it)
	a.SelectTab(TabChat)
	go func() {
		data, err := os.ReadFile(path)
		a.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot read image %d: %w"), it.ID, err), a.win)
				return
			}
			a.chat.Attach(dialogs.ExportName(it, it.Format), data)
		})
	}()
}

// toEdit reads an item's file and makes it an input off the UI goroutine,
// then shows Edit and hands the input to put.
func (a *App) toEdit(it library.Item, put func(edit.Input)) {
	path := a.lib.Path(it)
	go func() {
		data, err := os.ReadFile(path)
		in := edit.NewInput(dialogs.ExportName(it, it.Format), "image/"+it.Format, data, it.ID, nil) // named by its prompt
		a.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot read image %d: %w"), it.ID, err), a.win)
				return
			}
			a.SelectTab(TabEdit)
			put(in)
		})
	}()
}

// EditItem makes the gallery item id Edit's first image (a job card's
// "Edit this result"), read off the UI goroutine.
func (a *App) EditItem(id int64) {
	if a.lib == nil {
		return
	}
	go func() {
		it, err := a.lib.Get(context.Background(), id)
		a.Do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf(catalogue.T("cannot open image %d: %w"), id, err), a.win)
				return
			}
			galleryActions{a}.EditThis(it)
		})
	}()
}

// EditThis makes an item Edit's first image, keeping the other inputs,
// and shows that tab.
func (g galleryActions) EditThis(it library.Item) { g.a.toEdit(it, g.a.edit.InsertFirst) }

// ExpandCanvas makes an item Edit's first image and asks how to widen it.
func (g galleryActions) ExpandCanvas(it library.Item) {
	g.a.toEdit(it, func(in edit.Input) {
		g.a.edit.ExpandFirst()
		g.a.edit.InsertFirst(in)
	})
}

// Export asks where and how to export an item.
func (g galleryActions) Export(it library.Item) {
	dialogs.Export(g.a, it, g.a.lib.Path(it), nil)
}

// ExportMany asks where and how to export items, then exports them with
// a progress bar.
func (g galleryActions) ExportMany(items []library.Item) {
	dialogs.ExportMany(g.a, items, g.a.lib.Path, nil)
}

// onJobEvent runs on a job's goroutine: it decodes a preview there, then
// hops to the UI goroutine to show the event.
func (a *App) onJobEvent(e jobs.Event) {
	var img image.Image
	var results []jobview.Result
	if e.State == jobs.Partial && e.Preview != nil {
		img, _ = library.MakeThumbnailSized(e.Preview.Data, jobview.PreviewSide)
	}
	if e.State == jobs.Done && a.lib != nil {
		// Every image the job made, each with its thumbnail (n is at
		// most 10, and the runner keeps no more than were asked for).
		// An edit whose unmasked area was kept has two of each: the
		// card names them, and compares the kept one with the first
		// input.
		var before image.Image
		for _, id := range e.ItemIDs {
			r := jobview.Result{Item: id}
			if it, err := a.lib.Get(context.Background(), id); err == nil {
				if p, err := a.lib.Thumbnail(it); err == nil {
					r.Thumb, _ = imageio.DecodeFileFit(p, jobview.PreviewSide)
				}
				if it.Kind == "kept" && e.Job.Request.Edit != nil && len(e.Job.Request.Edit.Images) > 0 {
					if before == nil {
						before, _ = library.MakeThumbnailSized(e.Job.Request.Edit.Images[0].Data, jobview.PreviewSide)
					}
					r.Label, r.Before = catalogue.T("Unmasked kept"), before
				} else if e.Job.Request.Keep != nil {
					r.Label = catalogue.T("As sent")
				}
			}
			results = append(results, r)
		}
		for i := range e.Unsaved {
			u := &e.Unsaved[i]
			thumb, _ := library.MakeThumbnailSized(u.Image.Data, jobview.PreviewSide)
			results = append(results, jobview.Result{Thumb: thumb, Unsaved: u})
		}
	}
	a.bridge.Do(func() { a.showJobEvent(e, img, results) })
}

func (a *App) showJobEvent(e jobs.Event, img image.Image, results []jobview.Result) {
	if e.Job.Request.Edit != nil {
		if a.built[TabEdit] {
			a.edit.ShowJob(e, img, results)
		}
	} else if a.built[TabGenerate] {
		a.generate.ShowJob(e, img, results)
	}
	if e.State == jobs.Done && a.built[TabGallery] {
		a.gallery.Reload()
	}
	if e.Charged != nil {
		a.refreshSpend(e.State == jobs.Done)
	}
	if e.State.Final() {
		a.jobsEnded()
	}
	if (e.State == jobs.Done || e.State == jobs.Failed) && !a.focused {
		a.notify(e)
	}
}

// notify tells, over the desktop's notifications, that a job ended while
// the window was in the background. Notifications fail quietly.
func (a *App) notify(e jobs.Event) {
	title, body := catalogue.T("Image ready"), kit.Shorten(jobview.Prompt(e), 80)
	if len(e.Unsaved) > 0 {
		title, body = catalogue.T("Images not saved"), library.Cause(e.Unsaved[0].Err)
	}
	if e.State == jobs.Failed {
		title = catalogue.F("Image failed: %s", e.Err.Kind)
		body = e.Err.Hint
	}
	a.fyneApp.SendNotification(fyne.NewNotification(title, body))
}

// confirmClose asks before closing while jobs run: their images would be
// lost though they are paid for. Keeping them is the default.
func (a *App) confirmClose() {
	if a.runner == nil || a.runner.Running() == 0 {
		a.saveState()
		a.win.Close()
		return
	}
	n := a.runner.RunningImages()
	images := catalogue.N("If you quit now, %s images are lost, though the service may charge for them.", n, humanize.Comma(int64(n)))
	d := dialog.NewConfirm(catalogue.T("Jobs are still running"),
		catalogue.N("%d jobs have not finished.", a.runner.Running(), a.runner.Running())+" "+images,
		func(quit bool) {
			a.quitQuestion = nil
			if quit {
				a.saveState()
				a.win.Close()
			}
		}, a.win)
	d.SetConfirmText(catalogue.N("Quit and lose %s images", n, humanize.Comma(int64(n))))
	d.SetDismissText(catalogue.T("Keep running"))
	d.SetConfirmImportance(widget.DangerImportance)
	a.quitQuestion = d
	d.Show()
}

// jobsEnded follows the question confirmClose asked: once no job runs,
// nothing would be lost, so the window closes as the user asked it to;
// while some still run, the question is asked again with their numbers.
func (a *App) jobsEnded() {
	d := a.quitQuestion
	if d == nil || a.runner == nil {
		return
	}
	a.quitQuestion = nil
	d.Hide()
	a.confirmClose()
}

// UsePrompt implements room.Host: Chat's "Use as prompt" fills Text to
// image's or Edit's prompt with the reply as plain text (its markdown
// taken out) and shows that tab, saying what it replaced; Ctrl+Z in the
// prompt brings the old text back.
func (a *App) UsePrompt(target, text string) {
	text = strings.TrimSpace(markdown.Text(markdown.Parse(text)))
	tab := TabGenerate
	if target == room.TargetEdit {
		tab = TabEdit
	}
	a.SelectTab(tab) // built by now
	prompt, status := a.generate.Prompt(), a.generate.SetStatusUndo
	if tab == TabEdit {
		prompt, status = a.edit.Prompt(), a.edit.SetStatusUndo
	}
	old := prompt.Text
	prompt.SetText(text)
	if strings.TrimSpace(old) != "" && old != text {
		status(catalogue.F("The prompt now holds the reply, in place of “%s”.", kit.Short(old, 60)), func() { prompt.SetText(old) })
	}
	a.focusCurrent()
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
func (a *App) pickGroup(label string) {
	if label == ownKeyLabel() {
		label = ""
	}
	a.session.UseGroup(label)
}
