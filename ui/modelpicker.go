package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
)

// modelCache keeps each profile's model list, fetched once per profile
// and again on Refresh, and the pickers it feeds.
type modelCache struct {
	lists   map[string][]api.Model
	errs    map[string]error
	pickers []*modelPicker
}

// modelPicker is a model field fed by the service's list: pick from the
// list or type, and a name the service does not list exactly is flagged
// with the closest listed names.
type modelPicker struct {
	app      *App
	endpoint string // api.EndpointImages or api.EndpointChat
	entry    *widget.SelectEntry
	refresh  *widget.Button
	note     *widget.Label
	obj      fyne.CanvasObject
	// listed is the service's names for this endpoint; nil when unknown.
	listed []string
}

// newModelPicker makes a picker for one endpoint's models, starting at
// def, and registers it to receive the active profile's list.
func (a *App) newModelPicker(endpoint, placeholder, def string) *modelPicker {
	m := &modelPicker{app: a, endpoint: endpoint}
	m.entry = widget.NewSelectEntry(nil)
	m.entry.SetPlaceHolder(placeholder)
	m.entry.SetText(def)
	m.entry.OnChanged = func(string) { m.check() }
	m.refresh = &widget.Button{Icon: theme.ViewRefreshIcon(), Importance: widget.LowImportance, OnTapped: func() { a.refreshModels(true) }}
	m.note = hintLabel("")
	m.note.Hide()
	m.obj = container.NewVBox(container.NewBorder(nil, nil, nil, m.refresh, m.entry), m.note)
	a.models.pickers = append(a.models.pickers, m)
	m.show(a.models.lists[a.acct.current.ID], a.models.errs[a.acct.current.ID])
	return m
}

// text is the model name as typed, trimmed.
func (m *modelPicker) text() string { return strings.TrimSpace(m.entry.Text) }

// show takes a fetched list (or the failure to fetch it).
func (m *modelPicker) show(ms []api.Model, err error) {
	if err != nil {
		m.listed = nil
		m.entry.SetOptions(nil)
		m.setNote("The model list could not be fetched: "+errorText(err), widget.WarningImportance)
		return
	}
	if ms == nil {
		m.listed = nil
		m.entry.SetOptions(nil)
		m.check()
		return
	}
	m.listed = api.ModelsFor(ms, m.endpoint)
	m.entry.SetOptions(m.listed)
	m.check()
}

// check flags a name the service does not list exactly.
func (m *modelPicker) check() {
	if suggest, bad := m.unlisted(); bad {
		msg := fmt.Sprintf("%q is not a model this service lists (names must match exactly, case and hyphens too).", m.text())
		if len(suggest) > 0 {
			msg += " Did you mean " + strings.Join(suggest, ", ") + "?"
		}
		m.setNote(msg, widget.DangerImportance)
		return
	}
	m.note.Hide()
}

// unlisted reports whether the typed name is missing from a known list,
// with the closest listed names.
func (m *modelPicker) unlisted() ([]string, bool) {
	name := m.text()
	if m.listed == nil || name == "" || slices.Contains(m.listed, name) {
		return nil, false
	}
	return api.ClosestModels(name, m.listed), true
}

func (m *modelPicker) setNote(text string, imp widget.Importance) {
	m.note.Importance = imp
	m.note.SetText(text)
	m.note.Show()
}

// refreshModels fetches the connected profile's model list off the UI
// goroutine; without force a cached list is reused.
func (a *App) refreshModels(force bool) {
	p, c := a.acct.current, a.acct.client
	if c == nil {
		return
	}
	if ms, ok := a.models.lists[p.ID]; ok && !force {
		a.showModels(p.ID, ms, nil)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ms, err := c.Models(ctx)
		a.bridge.Do(func() {
			if err == nil {
				a.models.lists[p.ID] = ms
				delete(a.models.errs, p.ID)
			} else if _, ok := a.models.lists[p.ID]; !ok {
				a.models.errs[p.ID] = err
			}
			if a.acct.current.ID == p.ID {
				a.showModels(p.ID, a.models.lists[p.ID], a.models.errs[p.ID])
			}
		})
	}()
}

func (a *App) showModels(id string, ms []api.Model, err error) {
	for _, m := range a.models.pickers {
		m.show(ms, err)
	}
}

// confirmModel runs send at once when the picker's name is listed (or the
// list is unknown); otherwise it asks first, offering the closest names.
func (a *App) confirmModel(m *modelPicker, send func()) {
	suggest, bad := m.unlisted()
	if !bad {
		send()
		return
	}
	var d dialog.Dialog
	buttons := container.NewHBox(layoutSpacer())
	for _, s := range suggest {
		buttons.Add(&widget.Button{Text: "Use " + s, Importance: widget.HighImportance, OnTapped: func() {
			d.Hide()
			m.entry.SetText(s)
			send()
		}})
	}
	buttons.Add(&widget.Button{Text: "Send anyway", OnTapped: func() { d.Hide(); send() }})
	buttons.Add(&widget.Button{Text: "Cancel", OnTapped: func() { d.Hide() }})
	msg := fmt.Sprintf("%q is not in this service's model list. Services match names exactly, including case, hyphens and version, so the request would most likely fail (and some services charge for it).", m.text())
	if len(suggest) > 0 {
		msg += "\n\nClosest listed: " + strings.Join(suggest, ", ") + "."
	}
	body := widget.NewLabel(msg)
	body.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons("Unknown model", container.NewBorder(nil, buttons, nil, nil, body), a.win)
	d.Resize(fyne.NewSize(560, 220))
	d.Show()
}
