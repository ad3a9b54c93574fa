package ui

import "fyne.io/fyne/v2"

// Preference keys for what the window remembers between runs.
const (
	prefLastTab      = "window.lastTab"
	prefWindowWidth  = "window.width"
	prefWindowHeight = "window.height"
)

// savedSize is the window's size when it was last closed.
func (a *App) savedSize() fyne.Size {
	p := a.fyneApp.Preferences()
	size := fyne.NewSize(
		float32(p.FloatWithFallback(prefWindowWidth, float64(defaultWindowSize.Width))),
		float32(p.FloatWithFallback(prefWindowHeight, float64(defaultWindowSize.Height))),
	)
	if size.Width < 640 || size.Height < 400 {
		return defaultWindowSize
	}
	return size
}

// lastTab is the tab that was shown when the window was last closed.
func (a *App) lastTab() int {
	last := a.fyneApp.Preferences().IntWithFallback(prefLastTab, TabGenerate)
	if last < 0 || last >= len(a.rooms) {
		return TabGenerate
	}
	return last
}

// saveState records the window size; the tab is saved as it changes.
func (a *App) saveState() {
	size := a.win.Canvas().Size()
	if size.Width < 1 || size.Height < 1 {
		return
	}
	p := a.fyneApp.Preferences()
	p.SetFloat(prefWindowWidth, float64(size.Width))
	p.SetFloat(prefWindowHeight, float64(size.Height))
}
