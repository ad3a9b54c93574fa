package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// galleryTab is the Gallery tab: every image ever made as a virtualised
// grid of thumbnails, a search by prompt, and the opened item's details.
type galleryTab struct {
	search    *widget.Entry
	favorites *widget.Check
	count     *widget.Label
	grid      *widget.GridWrap
	details   *fyne.Container
}

func (t *galleryTab) buildUI() fyne.CanvasObject {
	t.search = &widget.Entry{PlaceHolder: "Search prompts"}
	t.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	t.favorites = widget.NewCheck("Favourites only", nil)
	t.count = widget.NewLabel("No images yet")
	toolbar := container.NewBorder(nil, nil, nil, container.NewHBox(t.favorites, t.count), t.search)

	t.grid = widget.NewGridWrap(
		func() int { return 0 },
		func() fyne.CanvasObject { return widget.NewIcon(theme.FileImageIcon()) },
		func(widget.GridWrapItemID, fyne.CanvasObject) {},
	)
	empty := container.NewCenter(hintLabel("Images you make appear here, newest first."))
	gridArea := container.NewStack(t.grid, empty)

	t.details = container.NewVBox(
		widget.NewLabelWithStyle("Details", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		hintLabel("Open an image to see it fitted with its prompt and every setting, and to copy the prompt, reuse its settings, send it to Edit, export or delete it."),
	)
	split := container.NewHSplit(gridArea, container.NewVScroll(container.NewPadded(t.details)))
	split.Offset = 0.7
	return container.NewBorder(toolbar, nil, nil, nil, split)
}

func (t *galleryTab) focusTarget() fyne.Focusable { return t.grid }

func (t *galleryTab) primaryAction() {}
