// Command barewindow is the floor for Easel's start-up and memory benchmarks:
// the smallest Fyne window that draws one label, built and run in the same
// bench run as easel so the ratio says what Easel itself adds.
package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.NewWithID("dev.easel.barewindow")
	w := a.NewWindow("Bare Fyne")
	w.SetContent(widget.NewLabel("bare"))
	w.Resize(fyne.NewSize(1280, 800))
	w.ShowAndRun()
}
