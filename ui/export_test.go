package ui

import "fyne.io/fyne/v2"

// New builds the main window on a Fyne app, all of it before it
// returns: tests drive it with Fyne's test driver through Window().
func New(a fyne.App, opts Options) *App {
	ea := newState(a, opts)
	ea.newWindow()
	ea.bridge.mu.Lock()
	defer ea.bridge.mu.Unlock()
	ea.build()
	ea.attach()
	return ea
}
