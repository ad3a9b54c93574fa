package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The tabs of the main window, in order; Ctrl+1..Ctrl+4 follow it.
const (
	TabChat = iota
	TabGenerate
	TabEdit
	TabGallery
)

var tabTitles = []string{"Chat", "Text to image", "Edit", "Gallery"}

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
