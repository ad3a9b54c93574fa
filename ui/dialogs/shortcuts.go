package dialogs

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
)

// shortcut is one line of the keyboard's table: the keys, with "Mod" for
// the platform's modifier (Ctrl, or Cmd on macOS), and what they do.
type shortcut struct{ keys, what string }

// shortcuts are the window's keys by where they work, as README lists
// them.
func shortcuts() []struct {
	scope string
	keys  []shortcut
} {
	return []struct {
		scope string
		keys  []shortcut
	}{
		{catalogue.T("Anywhere in the window"), []shortcut{
			{"Mod+1 … Mod+4", catalogue.T("Chat, Text to image, Edit, Gallery")},
			{"Mod+Enter", catalogue.T("Generate, or send the edit")},
			{"Mod+N", catalogue.T("New chat")},
			{"Mod+,", catalogue.T("Settings")},
			{"Mod+Q", catalogue.T("Quit")},
		}},
		{catalogue.T("Chat"), []shortcut{
			{"Enter", catalogue.T("Send the message")},
			{"Shift+Enter", catalogue.T("A new line")},
			{"Esc", catalogue.T("Stop the reply being written")},
		}},
		{catalogue.T("The mask painter"), []shortcut{
			{"[  ]", catalogue.T("Brush smaller, larger")},
			{"E", catalogue.T("Eraser")},
			{"H", catalogue.T("Show or hide the tint")},
			{"Mod+Z, Mod+Shift+Z", catalogue.T("Undo, redo")},
			{"Mod+wheel, Mod+=, Mod+-", catalogue.T("Zoom about the pointer")},
			{"Mod+0", catalogue.T("Fit the image")},
			{"Mod+1", catalogue.T("100 % (the window's Mod+1 waits while the painter has the keys)")},
		}},
		{catalogue.T("The large view"), []shortcut{
			{"Left, Right", catalogue.T("The previous or next image in the gallery's order")},
			{"Mod+0, Mod+1", catalogue.T("Fit, 100 %")},
			{"Esc", catalogue.T("Close")},
		}},
		{catalogue.T("Dialogs"), []shortcut{
			{"Esc", catalogue.T("Cancel or close")},
			{"Enter", catalogue.T("The default answer: the safe one where another is destructive")},
		}},
		{catalogue.T("Gallery"), []shortcut{
			{"Mod+click, Shift+click, Mod+A", catalogue.T("Select as in a file manager")},
			{"Arrows, Shift+arrows, Space", catalogue.T("Move, extend, select")},
			{"Enter", catalogue.T("View large")},
			{"Mod+E", catalogue.T("Export the selection")},
			{"F", catalogue.T("Favourite the selection")},
			{catalogue.T("A letter"), catalogue.T("Search for it (with nothing selected)")},
			{"Mod+F", catalogue.T("Go to the search")},
			{"Delete", catalogue.T("Delete (Undo brings it back until Easel closes)")},
			{"Esc", catalogue.T("Clear the selection")},
			{"Mod+Z", catalogue.T("Undo the last delete")},
			{"Mod+C", catalogue.T("Copy the open image, to paste in another app")},
		}},
	}
}

// ShowShortcuts lists the window's keys by where they work (Help ▸
// Keyboard shortcuts).
func ShowShortcuts(win fyne.Window) {
	box := container.NewVBox()
	for _, group := range shortcuts() {
		box.Add(widget.NewLabelWithStyle(group.scope, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		form := widget.NewForm()
		for _, s := range group.keys {
			form.Append(strings.ReplaceAll(s.keys, "Mod", modifierName), widget.NewLabel(s.what))
		}
		box.Add(form)
	}
	d := dialog.NewCustom(catalogue.T("Keyboard shortcuts"), catalogue.T("Close"), container.NewVScroll(box), win)
	d.Resize(fyne.NewSize(620, 560))
	d.Show()
}
