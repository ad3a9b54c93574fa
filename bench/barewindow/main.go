// Command barewindow is the floor for Easel's start-up, memory and idle
// CPU benchmarks: the smallest Fyne window that draws one label (or, with
// -entry, one focused entry whose cursor blinks, as Easel's prompt does),
// built and run in the same bench run as easel so the ratio says what
// Easel itself adds.
package main

import (
	"flag"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

func main() {
	entry := flag.Bool("entry", false, "show a focused entry instead of a label")
	flag.Parse()
	a := app.NewWithID("dev.easel.barewindow")
	w := a.NewWindow("Bare Fyne")
	if *entry {
		// A prompt-sized field at the top, as Easel's prompt sits.
		e := widget.NewMultiLineEntry()
		e.SetMinRowsVisible(4)
		w.SetContent(container.NewBorder(e, nil, nil, nil))
		w.Canvas().Focus(e)
	} else {
		w.SetContent(widget.NewLabel("bare"))
	}
	w.Resize(fyne.NewSize(1280, 800))
	w.ShowAndRun()
}
