// Package assets holds the files Easel ships inside its binary, so the app
// runs from a single executable with no install step. It has no Fyne import:
// ui/ wraps these bytes as Fyne resources.
package assets

import _ "embed"

//go:generate go run gen_icon.go

// Icon is the application icon (512x512 PNG), used for the window, the
// About dialog and packaging (FyneApp.toml points at the same file).
//
//go:embed icon.png
var Icon []byte

// WindowIcon is the application icon at 128x128, drawn from the same
// design, for the window: task bars show it at 16-128 pixels, and the
// window decodes it while it opens, on the main thread.
//
//go:embed icon-window.png
var WindowIcon []byte
