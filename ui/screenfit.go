package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// frameAllowance is what a desktop's window frame takes around the
// content, in pixels at 100 %: a title bar and borders (Windows 10 and 11
// draw about 31 px above and 1 px around; GNOME and KDE a little more).
// Fyne sizes the content, so the frame must be left over in the screen.
var frameAllowance = fyne.NewSize(16, 40)

// fitToScreen shrinks the window, when its remembered or default size is
// larger than the screen's work area (the screen less the taskbar, the
// dock or panels), to the largest that fits, and centres it: on a
// 1366x768 laptop a 1280x800 window would hide its menu bar above the
// screen and its status bar under the taskbar. It asks GLFW, which draws
// Fyne's windows on every desktop, for the primary monitor's work area;
// it must run on the main thread once the window exists (OnStarted), and
// does nothing under the test driver, which has no screen.
func fitToScreen(win fyne.Window) {
	if _, real := win.(driver.NativeWindow); !real {
		return
	}
	monitor := glfw.GetPrimaryMonitor()
	if monitor == nil {
		return
	}
	_, _, w, h := monitor.GetWorkarea()
	size, fits := fitWithin(win.Canvas().Size(), fyne.NewSize(float32(w), float32(h)), win.Canvas().Scale())
	if !fits {
		win.Resize(size)
		win.CenterOnScreen()
	}
}

// fitWithin is window (in Fyne units) shrunk to fit a work area of
// pixels at scale (pixels per unit) with room for the frame, and whether
// it already fitted.
func fitWithin(window, workPixels fyne.Size, scale float32) (fyne.Size, bool) {
	if scale <= 0 || workPixels.Width <= 0 || workPixels.Height <= 0 {
		return window, true
	}
	room := fyne.NewSize(
		(workPixels.Width-frameAllowance.Width*scale)/scale,
		(workPixels.Height-frameAllowance.Height*scale)/scale,
	)
	if window.Width <= room.Width && window.Height <= room.Height {
		return window, true
	}
	return fyne.NewSize(min(window.Width, room.Width), min(window.Height, room.Height)), false
}
