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
