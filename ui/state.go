package ui

import "fyne.io/fyne/v2"

// Preference keys for what the window remembers between runs.
const (
	prefLastTab      = "window.lastTab"
	prefWindowWidth  = "window.width"
	prefWindowHeight = "window.height"
	// prefVersion is the version of these settings (prefsVersion).
	prefVersion = "window.version"
)

// prefsVersion is the window settings' version. Settings written before
// versions existed read as 0 and hold the same keys. A change of a key's
// name or meaning is a new version, with a step in upgradePrefs that moves
// the old value over: a user's settings are upgraded, never dropped.
const prefsVersion = 1

// upgradePrefs brings the window settings to prefsVersion. Settings from
// a newer Easel are left as they are: it reads what it knows of them.
func upgradePrefs(p fyne.Preferences) {
	v := p.IntWithFallback(prefVersion, 0)
	if v >= prefsVersion {
		return
	}
	// 0 → 1: the keys are the same; only the version is new.
	p.SetInt(prefVersion, prefsVersion)
}

// savedSize is the window's size when it was last closed.
func savedSize(p fyne.Preferences) fyne.Size {
	size := fyne.NewSize(
		float32(p.FloatWithFallback(prefWindowWidth, float64(defaultWindowSize.Width))),
		float32(p.FloatWithFallback(prefWindowHeight, float64(defaultWindowSize.Height))),
	)
	if size.Width < 640 || size.Height < 400 {
		return defaultWindowSize
	}
	return size
}

// lastTab is the tab that was shown when the window was last closed, of
// tabs.
func lastTab(p fyne.Preferences, tabs int) int {
	last := p.IntWithFallback(prefLastTab, TabGenerate)
	if last < 0 || last >= tabs {
		return TabGenerate
	}
	return last
}

// saveState records the window size, Edit's panel divider and the tabs'
// drafts; the tab and the panel's fold are saved as they change.
func (a *App) saveState() {
	a.saving.Lock()
	defer a.saving.Unlock()
	size := a.win.Canvas().Size()
	if size.Width < 1 || size.Height < 1 {
		return
	}
	p := a.fyneApp.Preferences()
	p.SetFloat(prefWindowWidth, float64(size.Width))
	p.SetFloat(prefWindowHeight, float64(size.Height))
	if a.built != nil && a.built[TabEdit] {
		a.edit.SaveLayout(p)
	}
	for i, r := range a.rooms {
		if d, ok := r.(drafted); ok && a.built != nil && a.built[i] {
			d.SaveDraft(p, draftKey(i))
		}
	}
}
