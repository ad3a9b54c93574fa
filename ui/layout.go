package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/layout"
)

// layoutSpacer pushes the widgets after it to the end of a box.
func layoutSpacer() fyne.CanvasObject { return layout.NewSpacer() }
