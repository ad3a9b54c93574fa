package appdirs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The gallery stays on this machine (%LOCALAPPDATA%), the profiles roam
// with the user (%APPDATA%).
func TestWindowsFoldersFollowTheConvention(t *testing.T) {
	t.Setenv("EASEL_HOME", "")
	data, err := Data()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(os.Getenv("LOCALAPPDATA"), "Easel"); !strings.EqualFold(data, want) {
		t.Errorf("gallery in %s, want %s", data, want)
	}
	profiles, err := ProfilesFile()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(os.Getenv("APPDATA"), "Easel", "profiles.json"); !strings.EqualFold(profiles, want) {
		t.Errorf("profiles in %s, want %s", profiles, want)
	}
}
