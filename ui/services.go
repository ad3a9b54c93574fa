package ui

import (
	"fyne.io/fyne/v2"

	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/session"
	"easel/internal/statecopy"
	"easel/internal/thumbs"
	"easel/internal/work"
	"easel/ui/batches"
	"easel/ui/modelpick"
	"easel/ui/room"
)

// services are what the window shares with its tabs and dialogs: the
// window, the hop to its UI goroutine, the scope its work runs in, the
// connected service, the runner, the gallery and what is read from it.
// Their accessors are what every tab's host has in common (room.
// ServiceHost, dialogs.Host, the rooms' own Host interfaces); App embeds
// them, and the host role adds the verbs that act on the window.
type services struct {
	fyneApp fyne.App
	win     fyne.Window
	bridge  *Bridge
	// work is every task the window starts off its UI goroutine, on a
	// context that ends when the window closes.
	work    *work.Scope
	session *session.Session
	runner  *jobs.Runner
	lib     *library.Library
	libErr  error
	thumbs  *thumbs.Service
	models  *modelpick.Registry
	// stateCopy is Easel's own copy of the preferences, and watchdog
	// ends a quit that does not end (nil in tests): armed as each quit
	// begins, before the UI goroutine is asked, as that is what hangs.
	stateCopy *statecopy.Copy
	watchdog  *statecopy.Watchdog
	// batches are the window's batches of the Batch API; nil without a
	// gallery.
	batches *batches.Panel
	// focused is whether the window is in the foreground, for
	// notifications.
	focused bool
}

// Notify tells the desktop, unless the window is in front and
// evenInFront is false.
func (s *services) Notify(title, body string, evenInFront bool) {
	if evenInFront || !s.focused {
		s.fyneApp.SendNotification(fyne.NewNotification(title, body))
	}
}

// armQuit arms the quit's watchdog.
func (s *services) armQuit() { s.watchdog.Arm() }

// Window is the main window, for tests and for dialogs.
func (s *services) Window() fyne.Window { return s.win }

// Do runs f on the UI goroutine, through the bridge.
func (s *services) Do(f func()) { s.bridge.Do(f) }

// Work is the window's scope of work, as the tabs may use it.
func (s *services) Work() work.Starter { return s.work }

// Session is the connected service, whole, for the dialogs that change
// its profiles and keys.
func (s *services) Session() *session.Session { return s.session }

// Service is the connected service as the tabs use it.
func (s *services) Service() room.Service { return s.session }

// Runner runs the window's jobs; nil without a gallery.
func (s *services) Runner() *jobs.Runner { return s.runner }

// Library is the gallery; nil when it could not be opened.
func (s *services) Library() *library.Library { return s.lib }

// Ledger implements dialogs.Host: the gallery's ledger, nil without a
// gallery.
func (s *services) Ledger() *library.Ledger { return s.lib.Ledger() }

// Memory implements dialogs.Host: what the gallery remembers of each
// service, nil without a gallery.
func (s *services) Memory() *library.Memory { return s.lib.Memory() }

// LibraryErr is why the gallery could not be opened.
func (s *services) LibraryErr() error { return s.libErr }

// Thumbs loads the gallery's thumbnails.
func (s *services) Thumbs() *thumbs.Service { return s.thumbs }

// Models makes model pickers fed by the connected profile's list.
func (s *services) Models() *modelpick.Registry { return s.models }

// Clipboard is the system clipboard.
func (s *services) Clipboard() fyne.Clipboard { return s.fyneApp.Clipboard() }
