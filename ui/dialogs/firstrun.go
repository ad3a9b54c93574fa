package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/config"
	"easel/ui/kit"
)

// ShowFirstRun welcomes a user with no profile: it asks for an address
// and a key, can test them, or opens the built-in demo service instead.
// It returns the form, for tests.
func ShowFirstRun(h Host) *ProfileForm {
	f := NewProfileForm(h, config.Profile{Name: "OpenAI", BaseURL: config.DefaultBaseURL}, false)
	intro := widget.NewLabel(catalogue.T("Easel works with any OpenAI-compatible service: OpenAI itself, a company gateway, a reseller, or a local server such as Ollama or LM Studio. Enter its address and your key, or look around first with the built-in demo service, which draws images locally and costs nothing."))
	intro.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	demo := &widget.Button{Text: catalogue.T("Use the demo service"), OnTapped: func() { d.Hide(); h.Session().UseDemo() }}
	later := &widget.Button{Text: catalogue.T("Later"), OnTapped: func() { f.ConfirmDiscard(d.Hide) }}
	save := &widget.Button{Text: catalogue.T("Save and connect"), Importance: widget.HighImportance}
	save.OnTapped = func() {
		f.Save(func(p config.Profile) {
			d.Hide()
			h.Session().Activate(p)
		})
	}
	buttons := container.NewHBox(demo, kit.Spacer(), later, save)
	body := container.NewVBox(intro, f.form, kit.ButtonBeside(f.Test, f.Result))
	d = dialog.NewCustomWithoutButtons(catalogue.T("Welcome to Easel"), container.NewBorder(nil, buttons, nil, nil, body), h.Window())
	d.Resize(fyne.NewSize(640, 440))
	d.Show()
	h.Window().Canvas().Focus(f.Key)
	return f
}
