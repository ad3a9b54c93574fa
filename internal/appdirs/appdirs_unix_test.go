//go:build unix && !darwin

package appdirs

import (
	"path/filepath"
	"testing"
)

// On Linux nothing moves: a gallery and a profiles file of an earlier
// Easel are found where that Easel put them, with and without XDG's
// variables.
func TestLinuxFoldersAreTheOnesEaselAlwaysUsed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("EASEL_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	if got, _ := Data(); got != filepath.Join(home, ".local/share/easel") {
		t.Errorf("gallery in %s", got)
	}
	if got, _ := ProfilesFile(); got != filepath.Join(home, ".config/easel/profiles.json") {
		t.Errorf("profiles in %s", got)
	}
	t.Setenv("XDG_DATA_HOME", "/x/data")
	t.Setenv("XDG_CONFIG_HOME", "/x/config")
	if got, _ := Data(); got != "/x/data/easel" {
		t.Errorf("gallery in %s with XDG_DATA_HOME", got)
	}
	if got, _ := ProfilesFile(); got != "/x/config/easel/profiles.json" {
		t.Errorf("profiles in %s with XDG_CONFIG_HOME", got)
	}
}
