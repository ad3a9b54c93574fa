package ui

import (
	"maps"

	"fyne.io/fyne/v2"
)

// WithFyneDo returns m with Fyne's "fyneDo" migration declared. Easel
// reaches its widgets from other goroutines only through the Bridge, which
// is fyne.Do, so Fyne may skip the check it makes otherwise on every
// window call and every canvas.Refresh: it reads the calling goroutine's
// id from runtime.Stack, whose cost grows with the depth of the stack.
// Inside a frame that is deep (Fyne walks the widget tree recursively):
// at start-up the check took 4 ms of the first frame's 60 on the UI
// goroutine (docs/decisions.md). The map is copied, so m's own is left
// as it was.
//
// FyneApp.toml declares the same for builds made by the fyne tool; this
// covers go build and go run, which do not read it.
func WithFyneDo(m fyne.AppMetadata) fyne.AppMetadata {
	migrations := maps.Clone(m.Migrations)
	if migrations == nil {
		migrations = map[string]bool{}
	}
	migrations["fyneDo"] = true
	m.Migrations = migrations
	return m
}
