// Package modelpick is the model field of the image and chat forms: pick
// a name from the service's list or type one, and a name the service does
// not list exactly is flagged with the closest listed names before
// anything is sent (services match names exactly, and some charge for a
// request that fails). A Registry feeds every picker the connected
// profile's list; the package knows nothing else of the app.
package modelpick

import (
	"slices"
	"strings"
	"time"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/capability"
	"easel/internal/catalogue"
	"easel/ui/kit"
)

// Registry is every picker of the window, so that one model list reaches
// them all. Use it on the UI goroutine.
type Registry struct {
	pickers []*Picker
	// refresh asks for the list again (a picker's refresh button).
	refresh func()
	// list and err are the last list shown, for pickers made later.
	list []api.Model
	err  error
}

// NewRegistry makes a registry whose pickers' refresh buttons call refresh.
func NewRegistry(refresh func()) *Registry { return &Registry{refresh: refresh} }

// Show gives every picker a fetched list, or the failure to fetch it; a
// nil list and error mean the list is not known (yet).
func (r *Registry) Show(ms []api.Model, err error) {
	r.list, r.err = ms, err
	for _, p := range r.pickers {
		p.show(ms, err)
	}
}

// Picker is one model field, for one endpoint's models.
type Picker struct {
	endpoint string // api.EndpointImages or api.EndpointChat
	// Entry is the field itself; rooms read and set its text.
	Entry   *widget.SelectEntry
	refresh *iconbutton.Button
	note    *widget.Label
	// Object is what a form shows: the field, its refresh button and the
	// note under it.
	Object fyne.CanvasObject
	// OnChanged is told the model name as it is typed or picked, so a
	// form can follow what depends on the model.
	OnChanged func(string)
	// listed is the service's names for this endpoint; nil when unknown.
	listed []string
}

// New makes a picker for one endpoint's models, starting at def, and
// registers it to receive the connected profile's list.
func (r *Registry) New(endpoint, placeholder, def string) *Picker {
	m := &Picker{endpoint: endpoint}
	m.Entry = widget.NewSelectEntry(nil)
	m.Entry.SetPlaceHolder(placeholder)
	m.Entry.SetText(def)
	m.Entry.OnChanged = func(s string) {
		m.check()
		if m.OnChanged != nil {
			m.OnChanged(s)
		}
	}
	m.refresh = iconbutton.Low(catalogue.T("Ask the service for its models again"), theme.ViewRefreshIcon(), func() {
		if r.refresh != nil {
			r.refresh()
		}
	})
	m.note = kit.HintLabel("")
	m.note.Hide()
	m.Object = container.NewVBox(container.NewBorder(nil, nil, nil, m.refresh, m.Entry), m.note)
	r.pickers = append(r.pickers, m)
	m.show(r.list, r.err)
	return m
}

// Text is the model name as typed, trimmed.
func (m *Picker) Text() string { return strings.TrimSpace(m.Entry.Text) }

// SetText puts a model name in the field.
func (m *Picker) SetText(name string) { m.Entry.SetText(name) }

// Listed is the service's names for this picker's endpoint; nil while
// the list is unknown.
func (m *Picker) Listed() []string { return m.listed }

// show takes a fetched list (or the failure to fetch it).
func (m *Picker) show(ms []api.Model, err error) {
	if err != nil {
		m.listed = nil
		m.Entry.SetOptions(nil)
		m.setNote(catalogue.F("The model list could not be fetched: %s", kit.ErrorText(err)), widget.WarningImportance)
		return
	}
	if ms == nil {
		m.listed = nil
		m.Entry.SetOptions(nil)
		m.check()
		return
	}
	m.listed = api.ModelsFor(ms, m.endpoint)
	m.Entry.SetOptions(m.listed)
	m.check()
}

// check flags a name the service does not list exactly.
func (m *Picker) check() {
	if _, bad := m.Unlisted(); bad && m.family() != "" {
		m.setNote(catalogue.F("%q is not in this service's list, but it is a %s model: gateways list new models days late, so it is sent as typed.", m.Text(), m.family()), widget.WarningImportance)
		return
	}
	if suggest, bad := m.Unlisted(); bad {
		msg := catalogue.F("%q is not a model this service lists (names must match exactly, case and hyphens too).", m.Text())
		if len(suggest) > 0 {
			msg += " " + catalogue.F("Did you mean %s?", strings.Join(api.MarkAll(suggest), ", "))
		}
		m.setNote(msg, widget.DangerImportance)
		return
	}
	if note := api.Lookalike(m.Text()); note != "" {
		m.setNote(catalogue.F("%q %s. Check that it is the model you mean.", m.Text(), note), widget.WarningImportance)
		return
	}
	m.note.Hide()
}

// Unlisted reports whether the typed name is missing from a known list,
// with the closest listed names.
func (m *Picker) Unlisted() ([]string, bool) {
	name := m.Text()
	if m.listed == nil || name == "" || slices.Contains(m.listed, name) {
		return nil, false
	}
	return api.ClosestModels(name, m.listed), true
}

func (m *Picker) setNote(text string, imp widget.Importance) {
	m.note.Importance = imp
	m.note.SetText(text)
	m.note.Show()
}

// now is the day a family's age is judged on; tests fix it.
var now = time.Now

// family is the family of the typed name when it is one that shipped
// lately (capability.Sheet.IsNew), written as the provider writes its
// ids: a list without it is likely late, not refusing it. "" otherwise:
// an old model missing from the list is not offered, and "GPT-Image-2.6"
// is a typo.
func (m *Picker) family() string {
	name := m.Text()
	s, ok := capability.Lookup(name)
	if !ok || !s.IsNew(now()) || name != strings.ToLower(name) {
		return ""
	}
	return s.Family
}

// Confirm runs send at once when the picker's name is listed, the list
// is unknown, or Easel knows the name's family (a new snapshot the
// gateway does not list yet); otherwise it asks first in win, offering
// the closest names.
func Confirm(win fyne.Window, m *Picker, send func()) {
	suggest, bad := m.Unlisted()
	if !bad || m.family() != "" {
		send()
		return
	}
	var d dialog.Dialog
	buttons := container.NewHBox(kit.Spacer())
	for _, s := range suggest {
		buttons.Add(&widget.Button{Text: catalogue.F("Use %s", s), Importance: widget.HighImportance, OnTapped: func() {
			d.Hide()
			m.Entry.SetText(s)
			send()
		}})
	}
	buttons.Add(&widget.Button{Text: catalogue.T("Send anyway"), OnTapped: func() { d.Hide(); send() }})
	buttons.Add(&widget.Button{Text: catalogue.T("Cancel"), OnTapped: func() { d.Hide() }})
	msg := catalogue.F("%q is not in this service's model list. Services match names exactly, including case, hyphens and version, so the request would most likely fail (and some services charge for it).", m.Text())
	if len(suggest) > 0 {
		msg += "\n\n" + catalogue.F("Closest listed: %s.", strings.Join(suggest, ", "))
	}
	body := widget.NewLabel(msg)
	body.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons(catalogue.T("Unknown model"), container.NewBorder(nil, buttons, nil, nil, body), win)
	d.Resize(fyne.NewSize(560, 220))
	d.Show()
}

// Note is the warning under the field, "" when none is shown.
func (m *Picker) Note() string {
	if !m.note.Visible() {
		return ""
	}
	return m.note.Text
}
