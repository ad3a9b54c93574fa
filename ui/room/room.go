// Package room is the contract between the window and each of its tabs
// (Text to image, Edit, Chat, Gallery): what the app asks of a tab
// (Room), and what the image tabs get from the app (SendHost, made of
// ServiceHost, BudgetHost and CardHost; Chat and the Gallery declare
// their own). A tab depends on a narrow interface, not on the window's type, so it can be built and
// tested against a fake host, and no tab reaches into another's widgets:
// what one tab does to another (Reuse settings, Send to Edit) goes
// through the window, which calls the other tab's own methods.
package room

import (
	"context"

	"fyne.io/fyne/v2"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/internal/honesty"
	"easel/internal/jobs"
	"easel/internal/session"
	"easel/ui/modelpick"
)

// SendHost is what a tab that sends images (Text to image, Edit) asks
// of the window, and no more: the connected service and the runner to
// send through, the gallery's ledger and the window for the budget
// question and the split offer, the model pickers, and what a job card's
// buttons do with a result. The window's other powers (the clipboard,
// the thumbnails, Chat's Use as prompt, the status bar's spend) are not
// theirs. Call it on the UI goroutine, except Do, which is for
// goroutines.
type SendHost interface {
	ServiceHost
	BudgetHost
	CardHost
	// Models makes model pickers fed by the connected profile's list.
	Models() *modelpick.Registry
}

// CardHost is what a job card's buttons do with a result.
type CardHost interface {
	// OpenItem shows a gallery item large, in the Gallery's details.
	OpenItem(id int64)
	// EditItem makes a gallery item Edit's first image, keeping the
	// other inputs: "Edit this result".
	EditItem(id int64)
	// MoreLikeItem asks how many more pictures like a gallery item to
	// make, and makes them as its children.
	MoreLikeItem(id int64)
	// SaveImageAs offers to write an image the gallery could not take
	// to a file of the user's choice; it is the n-th of a job for prompt.
	SaveImageAs(img api.Image, prompt string, n int)
	// ShowSettings opens Settings, where a profile's key and limits are.
	ShowSettings()
}

// The tabs Chat's "Use as prompt" can fill.
const (
	TargetGenerate = "Text to image"
	TargetEdit     = "Edit"
)

// Service is the connected service as a tab sees it: what it sends with
// (the client, nil while nothing can be sent) and for (the profile in
// use, the preferences), what to say of it, and the other profiles and
// keys a board or a refusal may send to. The window's *session.Session is
// one; only the dialogs that change profiles and keys hold it whole.
type Service interface {
	Client() *api.Client
	Current() config.Profile
	Text() string
	ReadyText() string
	File() config.File
	Profiles() []config.Profile
	Find(ref string) (config.Profile, bool)
	ClientFor(p config.Profile, done func(*api.Client, error))
	Keys() *session.Keyring
}

// ServiceHost is what saying whether a tab can send needs of the window:
// the connected service, the runner, and why the gallery could not be
// opened.
type ServiceHost interface {
	Service() Service
	Runner() *jobs.Runner
	LibraryErr() error
}

// Room is one tab of the window.
type Room interface {
	// Build makes the tab's widgets; it is called once, when the tab is
	// first shown.
	Build() fyne.CanvasObject
	// FocusTarget is the tab's main input, focused when it is shown.
	FocusTarget() fyne.Focusable
	// PrimaryAction is what Ctrl+Enter does on this tab.
	PrimaryAction()
	// ServiceChanged says the connected service or its note changed:
	// enable or disable sending, and say why. Called on built rooms only.
	ServiceChanged()
	// Connected says a profile was just connected: apply its defaults.
	// Called on built rooms only.
	Connected()
}

// Ready reports whether a request can be sent now: a connected service
// and a gallery to save its images in.
func Ready(h ServiceHost) bool { return h.Service().Client() != nil && h.Runner() != nil }

// ServiceText is what a tab shows beside its send button: why nothing can
// be sent, or that the service is ready.
func ServiceText(h ServiceHost) string {
	if h.Runner() == nil && h.LibraryErr() != nil {
		return catalogue.F("The gallery folder could not be opened, so images could not be saved: %s", h.LibraryErr())
	}
	return h.Service().Text()
}

// ReadyText is ServiceText once a profile has just connected: what the
// service is, or why nothing can be sent.
func ReadyText(h ServiceHost) string {
	if h.Runner() == nil && h.LibraryErr() != nil {
		return ServiceText(h)
	}
	return h.Service().ReadyText()
}

// submitAsked sends a checked Generate or Edit request as a job on the
// connected profile, once the model name is confirmed; opts is the
// request's options, whose model the confirmation may swap for a listed
// one. What is known of it is then read once and asked about in one
// goroutine (sendPlanned), values the service refused before included
// when nearest says what using the nearest ones does; a refusal goes to
// status.
func submitAsked(h SendHost, model *modelpick.Picker, opts *api.ImageOptions, req jobs.Request, status func(string), nearest func([]honesty.Refusal)) {
	modelpick.Confirm(h.Window(), model, func() {
		opts.Model = model.Text()
		p := h.Service().Current()
		req.Profile, req.Group, req.Service, req.Prices = p.ID, p.UsingGroup(), h.Service().Client(), p.Prices
		h.Work().Go(func(ctx context.Context) { sendPlanned(ctx, h, p, req, status, nearest) })
	})
}
