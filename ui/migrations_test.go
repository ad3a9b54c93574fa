package ui

import (
	"testing"

	"fyne.io/fyne/v2"
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
