// Package dialogs holds the window's dialogs: the first-run welcome,
// Settings with its profile form, the plain-http consent, the session
// key, export and About. Each works through the small Host interface
// below, so none of them knows the window's type; the account logic
// behind them is internal/session's.
package dialogs

import (
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/library"
	"easel/internal/session"
	"easel/internal/work"
	"easel/ui/kit"
)

// FileHost is what the file dialogs (choose a picture, a folder or a
// file; save; export one picture) need of the window, and no more: a tab
// that offers them need not hand out its session or its gallery.
type FileHost interface {
	// Window is the main window the dialogs open over.
	Window() fyne.Window
	// Work starts tasks off the UI goroutine on the window's context,
	// which ends when the window closes, and hops back to it (Do, which
	// never blocks the caller).
	Work() work.Starter
}

// LibraryHost is what the dialogs that read the gallery (exporting many
// pictures with their sources, the prompt library) need of the window:
// the gallery is nil when it could not be opened.
type LibraryHost interface {
	FileHost
	Library() *library.Library
}

// Host is what the dialogs about the service and its money (settings,
// profiles, the session key, prices, spend) need of the window.
type Host interface {
	FileHost
	// Session is the connected service and its profiles.
	Session() *session.Session
	// Ledger is the record of requests and what they cost, and Memory
	// what each service was seen to honour: the gallery's stores the
	// spend, prices and service dialogs read and correct, nil when the
	// gallery could not be opened.
	Ledger() *library.Ledger
	Memory() *library.Memory
}

// AskPlainHTTP warns that p's key would cross the network in clear text;
// agreed runs if the user says yes.
func AskPlainHTTP(win fyne.Window, p config.Profile, agreed func()) {
	host := p.BaseURL
	if u, err := url.Parse(p.BaseURL); err == nil {
		host = u.Host
	}
	d := dialog.NewConfirm(catalogue.T("Send the key without encryption?"),
		catalogue.F("Profile %q talks to %s over plain http. Anyone on the network between this computer and %s can read its key and spend your balance.\n\nUse https if the server offers it. Send the key over http anyway for this profile?", p.Name, host, host),
		func(ok bool) {
			if ok {
				agreed()
			}
		}, win)
	d.SetConfirmText(catalogue.T("Send over http"))
	d.SetDismissText(catalogue.T("Cancel"))
	d.Show()
}

// AskSessionKey asks for p's key and keeps it in memory only, for a
// keyring that cannot store it.
func AskSessionKey(h Host, p config.Profile) {
	win := h.Window()
	if p.ID == "" || p.ReadOnly {
		dialog.ShowInformation(catalogue.T("No profile to unlock"),
			catalogue.T("Pick or add a profile first (File ▸ Settings…); its key can then be kept for this session."), win)
		return
	}
	entry := kit.NewDialogEntry()
	entry.Password = true
	entry.SetPlaceHolder(catalogue.T("sk-…"))
	d := dialog.NewForm(catalogue.F("Key for %q, this session only", p.Name), catalogue.T("Use key"), catalogue.T("Cancel"),
		[]*widget.FormItem{kit.FormItem(catalogue.T("API key"), entry, catalogue.T("Kept in memory until Easel quits; never written to disk. Leave empty for a local server that takes none."))},
		func(ok bool) {
			if ok {
				h.Session().UseSessionKey(p, entry.Text)
			}
		}, win)
	kit.AnswerKeys(d, entry)
	d.Resize(fyne.NewSize(520, 0))
	d.Show()
	win.Canvas().Focus(entry)
}

// About shows Easel's name, version and icon.
func About(win fyne.Window, icon fyne.Resource, version string) {
	img := canvas.NewImageFromResource(icon)
	img.FillMode = canvas.ImageFillContain
	img.SetMinSize(fyne.NewSize(96, 96))
	body := container.NewVBox(
		container.NewCenter(img),
		widget.NewLabelWithStyle(catalogue.F("Easel %s", version), fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle(catalogue.T("A designer's studio for OpenAI-compatible image and chat services."),
			fyne.TextAlignCenter, fyne.TextStyle{}),
	)
	dialog.ShowCustom(catalogue.T("About Easel"), catalogue.T("Close"), body, win)
}
