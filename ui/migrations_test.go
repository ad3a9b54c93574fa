package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestWithFyneDoDeclaresTheMigrationAndKeepsTheRest(t *testing.T) {
	packaged := fyne.AppMetadata{ID: AppID, Name: "Easel", Version: "1.2.3",
		Migrations: map[string]bool{"someLaterOne": true}}
	got := WithFyneDo(packaged)
	if !got.Migrations["fyneDo"] || !got.Migrations["someLaterOne"] {
		t.Errorf("migrations = %v, want fyneDo and someLaterOne", got.Migrations)
	}
	if got.ID != AppID || got.Name != "Easel" || got.Version != "1.2.3" {
		t.Errorf("metadata changed beyond the migration: %+v", got)
	}
	if packaged.Migrations["fyneDo"] {
		t.Error("the caller's map was changed")
	}
	if m := WithFyneDo(fyne.AppMetadata{}); !m.Migrations["fyneDo"] {
		t.Errorf("no migrations to start from: got %v", m.Migrations)
	}
}

// Window settings from before versions keep every value and gain the
// version; settings from a newer Easel are left as they are.
func TestWindowSettingsAreUpgradedNotDropped(t *testing.T) {
	a := test.NewTempApp(t)
	p := a.Preferences()
	p.SetInt(prefLastTab, TabGallery)
	p.SetFloat(prefWindowWidth, 1111)
	p.SetFloat(prefWindowHeight, 777)
	ea := newApp(t, a, isolated(t, Options{}))
	t.Cleanup(ea.win.Close)
	if got := p.Int(prefVersion); got != prefsVersion {
		t.Errorf("version %d after start, want %d", got, prefsVersion)
	}
	if lastTab(ea.fyneApp.Preferences(), len(ea.rooms)) != TabGallery || savedSize(ea.fyneApp.Preferences()) != fyne.NewSize(1111, 777) {
		t.Errorf("after the upgrade: tab %d, size %v", lastTab(ea.fyneApp.Preferences(), len(ea.rooms)), savedSize(ea.fyneApp.Preferences()))
	}
	p.SetInt(prefVersion, prefsVersion+5)
	upgradePrefs(p)
	if got := p.Int(prefVersion); got != prefsVersion+5 {
		t.Errorf("a newer version was lowered to %d", got)
	}
}
