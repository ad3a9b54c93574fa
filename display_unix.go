//go:build unix && !darwin

package main

import (
	"os"
	"strings"

	"easel/internal/catalogue"
	"easel/internal/cli"
)

// noDisplay says why the window cannot open on this desktop session: a
// Linux or BSD session without X11 or Wayland (a console, ssh without
// forwarding), where Fyne would stop with a GLFW stack trace.
func noDisplay() (string, bool) {
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return "", false
	}
	return catalogue.F("the window needs a display (no DISPLAY or WAYLAND_DISPLAY is set); without one, use the command line: %s", strings.Join(cli.Commands, ", ")), true
}

// onX11Only tells Fyne to open the window on X11 where there is no
// Wayland display to try: GLFW, left to choose, tries Wayland first, and
// libwayland prints "error: XDG_RUNTIME_DIR is invalid or not set" on
// stderr at every start in a session without one (#57). FYNE_PLATFORM is
// Fyne's own choice of platform; one the user set stands.
func onX11Only() {
	if os.Getenv("WAYLAND_DISPLAY") == "" && os.Getenv("DISPLAY") != "" && os.Getenv("FYNE_PLATFORM") == "" {
		_ = os.Setenv("FYNE_PLATFORM", "x11")
	}
}
