package dialogs

import (
	"strings"
	"testing"
)

// claimed are the window's keys a view takes while it has the focus
// (see ui.claimedByView): listed in both scopes on purpose.
var claimed = map[string]bool{"Mod+1": true}

// No two lines of one scope share a key, and a view's key that the
// window also has is one the view claims.
func TestShortcutsDoNotCollide(t *testing.T) {
	keysOf := func(s shortcut) []string {
		var out []string
		for _, k := range strings.Split(s.keys, ", ") {
			if strings.Contains(k, "…") || strings.Contains(k, "click") || strings.Contains(k, "wheel") {
				continue // ranges and pointer gestures
			}
			out = append(out, k)
		}
		return out
	}
	groups := shortcuts()
	window := map[string]bool{}
	for _, s := range groups[0].keys {
		for _, k := range keysOf(s) {
			window[k] = true
		}
	}
	window["Mod+1"], window["Mod+2"], window["Mod+3"], window["Mod+4"] = true, true, true, true // "Mod+1 … Mod+4"
	for _, g := range groups {
		seen := map[string]string{}
		for _, s := range g.keys {
			for _, k := range keysOf(s) {
				if other, dup := seen[k]; dup {
					t.Errorf("%s: %s does both %q and %q", g.scope, k, other, s.what)
				}
				seen[k] = s.what
				if g.scope != groups[0].scope && window[k] && !claimed[k] {
					t.Errorf("%s: %s is the window's too, and the view does not claim it", g.scope, k)
				}
			}
		}
	}
}
