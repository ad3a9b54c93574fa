package compare

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/ui/kit"
)

// ShowDialog opens a large before/after view of a and b over win, with
// the switch to see them side by side: the gallery's Compare… and a job
// card's both open it.
func ShowDialog(win fyne.Window, a, b image.Image, title string) {
	v := New(a, b, fyne.NewSize(720, 480))
	apart := kit.NewCheck(catalogue.T("Side by side"), v.SetSideBySide)
	hint := widget.NewLabel(catalogue.T("Drag across the image: before on the left of the line, after on the right."))
	d := dialog.NewCustom(title, catalogue.T("Close"), container.NewBorder(container.NewBorder(nil, nil, nil, apart, hint), nil, nil, nil, v), win)
	d.Resize(fyne.NewSize(900, 640))
	d.Show()
}

// ShowDecoded runs decode off the UI goroutine and opens the view of the
// two images it gives over win, through do (the window's bridge); a
// decode that fails is shown as an error instead. The gallery's
// Compare… and a job card's both decode large files first.
func ShowDecoded(win fyne.Window, do func(func()), title string, decode func() (before, after image.Image, err error)) {
	go func() {
		a, b, err := decode()
		do(func() {
			if err != nil {
				dialog.ShowError(err, win)
				return
			}
			ShowDialog(win, a, b, title)
		})
	}()
}
