package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/config"
)

// showFirstRun welcomes a user with no profile: it asks for an address
// and a key, can test them, or opens the built-in demo service instead.
func (a *App) showFirstRun() {
	f := newProfileForm(a, config.Profile{Name: "OpenAI", BaseURL: config.DefaultBaseURL}, false)
	intro := widget.NewLabel("Easel works with any OpenAI-compatible service: OpenAI itself, a company gateway, a reseller, or a local server such as Ollama or LM Studio. " +
		"Enter its address and your key, or look around first with the built-in demo service, which draws images locally and costs nothing.")
	intro.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	demo := &widget.Button{Text: "Use the demo service", OnTapped: func() { d.Hide(); a.useDemo() }}
	later := &widget.Button{Text: "Later", OnTapped: func() { d.Hide() }}
	save := &widget.Button{Text: "Save and connect", Importance: widget.HighImportance}
	save.OnTapped = func() {
		f.save(func(p config.Profile) {
			d.Hide()
			a.activate(p)
		})
	}
	buttons := container.NewHBox(demo, layoutSpacer(), later, save)
	body := container.NewVBox(intro, f.form, container.NewBorder(nil, nil, f.test, nil, f.result))
	d = dialog.NewCustomWithoutButtons("Welcome to Easel", container.NewBorder(nil, buttons, nil, nil, body), a.win)
	d.Resize(fyne.NewSize(640, 440))
	a.firstRun = f
	d.Show()
	a.win.Canvas().Focus(f.key)
}
