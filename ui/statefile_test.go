package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// Easel's copy of its settings follows every change, written whole; a
// start whose Fyne preferences were emptied (a kill while Fyne rewrote
// its file) gets them back from it, lists included, and a start whose
// preferences are whole keeps its own.
func TestTheStateCopySurvivesAnEmptiedPreferencesFile(t *testing.T) {
	dir := t.TempDir()
	a := test.NewTempApp(t)
	s := openStateFile(a, dir)
	if s == nil {
		t.Fatal("no state copy for Fyne's preferences")
	}
	p := a.Preferences()
	p.SetInt(prefVersion, prefsVersion)
	p.SetFloat(prefWindowWidth, 1280)
	p.SetString("draft.generate", "a lighthouse at dusk")
	p.SetStringList("recent", []string{"a", "b"})
	var saved map[string]any
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(dir, "easel-state.json"))
		if err == nil && json.Unmarshal(data, &saved) == nil && saved["recent"] != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the copy was not written: %s %v", data, err)
		}
	}

	emptied := test.NewTempApp(t)
	openStateFile(emptied, dir)
	q := emptied.Preferences()
	if q.Float(prefWindowWidth) != 1280 || q.String("draft.generate") != "a lighthouse at dusk" || len(q.StringList("recent")) != 2 || q.Int(prefVersion) != prefsVersion {
		t.Errorf("put back: width %v, draft %q, list %v, version %d", q.Float(prefWindowWidth), q.String("draft.generate"), q.StringList("recent"), q.Int(prefVersion))
	}

	whole := test.NewTempApp(t)
	whole.Preferences().SetInt(prefVersion, prefsVersion)
	whole.Preferences().SetString("draft.generate", "newer")
	openStateFile(whole, dir)
	if got := whole.Preferences().String("draft.generate"); got != "newer" {
		t.Errorf("a whole preferences file was overwritten: %q", got)
	}
}
