package ui

import (
	"os"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"

	"easel/internal/statecopy"
)

// openStateCopy keeps Easel's own copy of a's preferences in dir
// (statecopy says why), putting it back first when Fyne's are empty. Nil
// when the preferences are not Fyne's or there is no folder (tests).
func openStateCopy(a fyne.App, dir string) *statecopy.Copy {
	values, ok := a.Preferences().(statecopy.Values)
	if !ok || dir == "" {
		return nil
	}
	// Fyne keeps its preferences in the same folder (app.storageRoot).
	c := statecopy.Open(values, filepath.Join(dir, "easel-state.json"), prefVersion, filepath.Join(dir, "preferences.json"))
	a.Preferences().AddChangeListener(c.Changed)
	return c
}

// quitWithin is how long a quit may take, from Ctrl+Q, the window's
// close, SIGTERM or SIGINT, before Easel ends itself.
const quitWithin = 5 * time.Second

// quitWatchdog is the real window's: its state copy written, then the
// process ended. Tests' windows have none: they close without ending
// their process.
func quitWatchdog(c *statecopy.Copy) *statecopy.Watchdog {
	return &statecopy.Watchdog{Within: quitWithin, Save: c.Write, Exit: os.Exit}
}
