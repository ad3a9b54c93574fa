package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"easel/internal/catalogue"
)

// The tabs of the main window, in order; Ctrl+1..Ctrl+4 follow it.
const (
	TabChat = iota
	TabGenerate
	TabEdit
	TabGallery
)

// tabTitles is a function: the language is chosen after packages
// initialise.
func tabTitles() []string {
	return []string{catalogue.T("Chat"), catalogue.T("Text to image"), catalogue.T("Edit"), catalogue.T("Gallery")}
}

// tabIcons is a function, not a variable: theme icons need the running
// app, which package initialisation comes before.
func tabIcons() []fyne.Resource {
	return []fyne.Resource{
		theme.MailComposeIcon(),
		theme.ColorPaletteIcon(),
		theme.DocumentCreateIcon(),
		theme.GridIcon(),
	}
}
