package room

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// besideMin is the least width the status line is given beside the send
// button: narrower, it is put above the button instead. Beside it in
// Edit's narrow panel, the line wrapped a word a line and stretched
// Send edit into a tall block (#57).
const besideMin = 260

// actionLayout lays out the action row's status line (objs[0]) and its
// buttons (objs[1]): side by side where the line has room, the line above
// the buttons where it has not. The buttons keep their own height either
// way, at the row's right.
type actionLayout struct {
	// laid is the width last laid out at, for MinSize.
	laid float32
}

func (l *actionLayout) stacked(w float32, buttons fyne.CanvasObject) bool {
	return w-buttons.MinSize().Width-theme.Padding() < besideMin
}

// shows reports whether the status line has anything to show: an empty
// line above the button would be a blank band.
func shows(status fyne.CanvasObject) bool {
	if l, ok := status.(*widget.Label); ok && l.Text == "" {
		return false
	}
	return status.Visible()
}

// Layout implements fyne.Layout.
func (l *actionLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.laid = size.Width
	status, buttons := objs[0], objs[1]
	bs := buttons.MinSize()
	if !l.stacked(size.Width, buttons) {
		w := size.Width - bs.Width - theme.Padding()
		status.Resize(fyne.NewSize(w, size.Height))
		status.Move(fyne.Position{})
		buttons.Resize(bs)
		buttons.Move(fyne.NewPos(size.Width-bs.Width, (size.Height-bs.Height)/2))
		return
	}
	y := float32(0)
	status.Resize(fyne.NewSize(size.Width, 0))
	if shows(status) {
		status.Resize(fyne.NewSize(size.Width, status.MinSize().Height))
		status.Move(fyne.Position{})
		y = status.MinSize().Height
	}
	buttons.Resize(bs)
	buttons.Move(fyne.NewPos(size.Width-bs.Width, y))
}

// MinSize implements fyne.Layout, at the width last laid out.
func (l *actionLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	status, buttons := objs[0], objs[1]
	bs := buttons.MinSize()
	ss := fyne.Size{}
	if shows(status) {
		ss = status.MinSize()
	}
	if l.laid == 0 || !l.stacked(l.laid, buttons) {
		return fyne.NewSize(bs.Width+theme.Padding()+min(ss.Width, besideMin), max(bs.Height, ss.Height))
	}
	return fyne.NewSize(bs.Width, ss.Height+bs.Height)
}
