package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"easel/assets"
	"easel/internal/applog"
	"easel/internal/buildinfo"
	"easel/internal/catalogue"
	"easel/internal/library"
	"easel/internal/wording"
	"easel/ui/dialogs"
	"easel/ui/edit"
	"easel/ui/gallery"
)

// Shortcuts of the main window. Each is both a menu item's shortcut (so
// the menu shows it, and the real driver fires it even while a text field
// has the focus) and a canvas shortcut (so the test driver reaches it).
var (
	shortcutTab = []fyne.Shortcut{
		&desktop.CustomShortcut{KeyName: fyne.Key1, Modifier: fyne.KeyModifierShortcutDefault},
		&desktop.CustomShortcut{KeyName: fyne.Key2, Modifier: fyne.KeyModifierShortcutDefault},
		&desktop.CustomShortcut{KeyName: fyne.Key3, Modifier: fyne.KeyModifierShortcutDefault},
		&desktop.CustomShortcut{KeyName: fyne.Key4, Modifier: fyne.KeyModifierShortcutDefault},
	}
	shortcutPrimary  = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutQuit     = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutSettings = &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutNewChat  = &desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutSearch   = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
)

// menus are the window's menus and shortcuts, and what their items do
// that belongs to no room (import, check the gallery, quit, about);
// what they ask of the window, its tabs and the rooms goes through the
// narrow interfaces below.
type menus struct {
	*services
	// window is the window and its tabs; edit, chat and gallery the
	// rooms the menus act on; spend the status line's spend; feed asks
	// before quitting while jobs run.
	window  menuWindow
	edit    editDocument
	chat    interface{ NewChat() }
	gallery interface {
		Import(paths []string)
		Find() gallery.Finder
	}
	spend interface{ showSpend() }
	feed  interface{ confirmClose() }
	// dialogHost is the window as the prompt library and the file
	// dialogs see it.
	dialogHost dialogs.LibraryHost
	// shortcuts are the window's shortcuts by name (addShortcuts), so
	// tests fire one as the canvas would.
	shortcuts map[string]func()
}

// editDocument is what the menus ask of Edit: to expand its canvas, and
// to save or open its work as a setup file.
type editDocument interface {
	ExpandCanvas()
	Setups() *edit.Setups
}

// menuWindow is what the menus ask of the window and its tabs: to show a
// tab, to send or generate on the one shown (Ctrl+Enter), Settings, the
// prompt library and keeping the tab's prompt in it, and to keep the
// drafts and layout.
type menuWindow interface {
	SelectTab(tab int)
	primaryAction()
	showSettings()
	showPromptLibrary(h dialogs.LibraryHost, show func(tab int))
	keepPrompt(h dialogs.LibraryHost, show func(tab int))
	saveState()
}

func (a *menus) mainMenu() *fyne.MainMenu {
	primary := fyne.NewMenuItem(catalogue.T("Send or generate"), a.window.primaryAction)
	primary.Shortcut = shortcutPrimary
	quit := fyne.NewMenuItem(catalogue.T("Quit"), a.quit)
	quit.Shortcut = shortcutQuit
	quit.IsQuit = true
	demo := fyne.NewMenuItem(catalogue.T("Use the demo service"), func() { a.session.UseDemo() })
	settings := fyne.NewMenuItem(catalogue.T("Settings…"), a.window.showSettings)
	settings.Shortcut = shortcutSettings
	newChat := fyne.NewMenuItem(catalogue.T("New chat"), a.newChat)
	newChat.Shortcut = shortcutNewChat
	importItem := fyne.NewMenuItem(catalogue.T("Import images…"), a.importImages)
	inEdit := func(f func()) func() {
		return func() {
			a.window.SelectTab(TabEdit)
			f()
		}
	}
	saveSetup := fyne.NewMenuItem(catalogue.T("Save Edit setup…"), inEdit(func() { a.edit.Setups().Save() }))
	openSetup := fyne.NewMenuItem(catalogue.T("Open Edit setup…"), inEdit(func() { a.edit.Setups().Open() }))
	file := fyne.NewMenu(catalogue.T("File"), newChat, importItem, primary, fyne.NewMenuItemSeparator(), openSetup, saveSetup,
		fyne.NewMenuItemSeparator(), settings, demo, fyne.NewMenuItemSeparator(), quit)

	edit := fyne.NewMenu(catalogue.T("Edit"),
		a.forwardItem(catalogue.T("Undo"), &fyne.ShortcutUndo{}),
		a.forwardItem(catalogue.T("Redo"), &fyne.ShortcutRedo{}),
		fyne.NewMenuItemSeparator(),
		a.forwardItem(catalogue.T("Cut"), &fyne.ShortcutCut{Clipboard: a.fyneApp.Clipboard()}),
		a.forwardItem(catalogue.T("Copy"), &fyne.ShortcutCopy{Clipboard: a.fyneApp.Clipboard()}),
		a.forwardItem(catalogue.T("Paste"), &fyne.ShortcutPaste{Clipboard: a.fyneApp.Clipboard()}),
		a.forwardItem(catalogue.T("Select all"), &fyne.ShortcutSelectAll{}),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(catalogue.T("Expand canvas…"), func() {
			a.window.SelectTab(TabEdit)
			a.edit.ExpandCanvas()
		}),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem(catalogue.T("Prompt library…"), func() { a.window.showPromptLibrary(a.dialogHost, a.window.SelectTab) }),
		fyne.NewMenuItem(catalogue.T("Keep prompt in library…"), func() { a.window.keepPrompt(a.dialogHost, a.window.SelectTab) }),
	)

	tabItems := make([]*fyne.MenuItem, len(tabTitles()))
	for i, title := range tabTitles() {
		item := fyne.NewMenuItem(title, func() {
			if claimedByView(a.win, shortcutTab[i]) || underDialog(a.win) {
				return // a zoomed view has the keys (Ctrl+1 is its 100 %); a dialog is answered first
			}
			a.window.SelectTab(i)
		})
		item.Shortcut = shortcutTab[i]
		tabItems[i] = item
	}
	spendItem := fyne.NewMenuItem(catalogue.T("Spend…"), a.spend.showSpend)
	search := fyne.NewMenuItem(catalogue.T("Search the gallery"), a.searchGallery)
	search.Shortcut = shortcutSearch
	view := fyne.NewMenu(catalogue.T("View"), append(tabItems, fyne.NewMenuItemSeparator(), search, spendItem)...)

	help := fyne.NewMenu(catalogue.T("Help"),
		fyne.NewMenuItem(catalogue.T("Keyboard shortcuts"), func() { dialogs.ShowShortcuts(a.win) }),
		fyne.NewMenuItem(catalogue.T("Check the gallery's index"), a.checkLibraryFully),
		fyne.NewMenuItem(catalogue.T("Open the log folder"), func() { openLogFolder(a.fyneApp, a.win) }),
		fyne.NewMenuItem(catalogue.T("About Easel"), a.showAbout))
	return fyne.NewMainMenu(file, edit, view, help)
}

// forwardItem is an Edit menu item that hands its shortcut to the focused
// widget, so the menu works on whichever text field the user is in.
func (a *menus) forwardItem(label string, sc fyne.Shortcut) *fyne.MenuItem {
	item := fyne.NewMenuItem(label, func() {
		if s, ok := a.win.Canvas().Focused().(fyne.Shortcutable); ok {
			s.TypedShortcut(sc)
		}
	})
	item.Shortcut = sc
	return item
}

// addShortcuts registers the window shortcuts on the canvas too: the real
// driver runs menu shortcuts first, the test driver only knows the canvas.
// Each is kept by name as well, so tests fire one as the canvas would
// (Fyne 2.8's test canvas no longer takes typed shortcuts).
func (a *menus) addShortcuts() {
	a.shortcuts = map[string]func(){}
	add := func(sc fyne.Shortcut, f func()) {
		a.shortcuts[sc.ShortcutName()] = f
		a.win.Canvas().AddShortcut(sc, func(fyne.Shortcut) { f() })
	}
	for i, sc := range shortcutTab {
		add(sc, func() {
			if !claimedByView(a.win, sc) && !underDialog(a.win) {
				a.window.SelectTab(i)
			}
		})
	}
	add(shortcutPrimary, a.window.primaryAction)
	add(shortcutQuit, a.quit)
	add(shortcutSettings, a.window.showSettings)
	add(shortcutNewChat, a.newChat)
	add(shortcutSearch, a.searchGallery)
}

// searchGallery shows the Gallery with the keyboard in its search
// (Ctrl+F); a dialog on top is answered first.
func (a *menus) searchGallery() {
	if underDialog(a.win) {
		return
	}
	a.window.SelectTab(TabGallery)
	a.gallery.Find().Focus()
}

// importImages asks for image files and adds them to the gallery.
func (a *menus) importImages() {
	dialogs.PickImages(a.dialogHost, catalogue.T("Import images"), catalogue.T("Import"), func(paths []string) {
		a.window.SelectTab(TabGallery)
		a.gallery.Import(paths)
	})
}

// emptyTrash removes for good what was deleted in this session: Undo
// lasted until now.
func (s *services) emptyTrash() {
	if s.lib != nil {
		_ = s.lib.Trash().Empty(context.WithoutCancel(s.work.Context())) // as the window closes: the scope has ended
	}
}

// checkLibraryFully runs SQLite's whole integrity check of the gallery's
// index, off the UI goroutine, and says what it found.
func (a *menus) checkLibraryFully() {
	lib := a.lib
	if lib == nil {
		dialog.ShowInformation(catalogue.T("No gallery to check"), wording.Sentence(fmt.Sprint(a.libErr)), a.win)
		return
	}
	busy := dialog.NewCustomWithoutButtons(catalogue.T("Checking the gallery's index…"), widget.NewProgressBarInfinite(), a.win)
	busy.Show()
	a.work.Go(func(ctx context.Context) {
		found, err := lib.CheckFully(ctx)
		a.bridge.Do(func() {
			busy.Hide()
			switch {
			case err != nil:
				dialog.ShowError(err, a.win)
			case len(found) == 0:
				dialog.ShowInformation(catalogue.T("The gallery's index is whole"),
					catalogue.F("SQLite checked every page and index of %s and found nothing wrong.", filepath.Join(lib.Root(), "library.db")), a.win)
			default:
				dialog.ShowInformation(catalogue.T("The gallery's index is damaged"),
					catalogue.F("SQLite found in %s: %s. Nothing more is written into it: restore it from a backup, or move library.db aside and Easel makes a new one from the images.",
						filepath.Join(lib.Root(), "library.db"), strings.Join(found, "; ")), a.win)
			}
		})
	})
}

// restartWanted is set when the window is asked to start again (a new
// language): main starts Easel anew once Run has returned.
var restartWanted atomic.Bool

// RestartWanted reports whether the window closed to start again.
func RestartWanted() bool { return restartWanted.Load() }

// Restart implements dialogs.Restarter: it leaves as Quit does, drafts
// and layout saved, and main starts Easel again. While jobs run it says
// so and stays: their images would be lost.
func (a *host) Restart() {
	if a.runner != nil && a.runner.Running() > 0 {
		dialog.ShowInformation(catalogue.T("Jobs are still running"),
			catalogue.N("%d jobs have not finished: restart once they have, and the new language is used from then.", a.runner.Running(), a.runner.Running()), a.win)
		return
	}
	restartWanted.Store(true)
	a.window.leave()
}

// newChat shows Chat with a new conversation (Ctrl+N).
func (a *menus) newChat() {
	a.window.SelectTab(TabChat)
	a.chat.NewChat()
}

// quit leaves the app, asking first while jobs run.
func (a *menus) quit() {
	if a.runner != nil && a.runner.Running() > 0 {
		a.feed.confirmClose()
		return
	}
	a.armQuit()
	a.window.saveState()
	a.fyneApp.Quit()
}

func (a *menus) showAbout() {
	dialogs.About(a.win, fyne.NewStaticResource("icon.png", assets.Icon), buildinfo.Version)
}

// shortcutClaimer is a view with keys of its own that the window's menu
// also has (the mask painter, the large view: Ctrl+0 fits, Ctrl+1 is
// 100 %).
type shortcutClaimer interface {
	ClaimShortcut(fyne.Shortcut) bool
}

// claimedByView gives s to the focused view when it takes it. Fyne runs
// a menu's shortcut before the focused widget's, so the menu asks.
// underDialog reports whether a dialog is open over the window: the tab
// under it does not change (Ctrl+2 switched tabs under a modal Settings,
// issue 40, item 9).
func underDialog(win fyne.Window) bool { return win.Canvas().Overlays().Top() != nil }

func claimedByView(win fyne.Window, s fyne.Shortcut) bool {
	v, ok := win.Canvas().Focused().(shortcutClaimer)
	return ok && v.ClaimShortcut(s)
}

// openLogFolder shows the folder of Easel's log (internal/applog) in the
// file manager: what to attach when a charge or an image went missing.
func openLogFolder(app fyne.App, win fyne.Window) {
	dir, err := library.Dir()
	if err == nil {
		dir = filepath.Join(dir, applog.Folder)
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		dialog.ShowError(errors.New(catalogue.F("The log folder cannot be opened: %v", err)), win)
		return
	}
	_ = app.OpenURL(&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)})
}
