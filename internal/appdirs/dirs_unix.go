//go:build unix && !darwin

package appdirs

import (
	"os"
	"path/filepath"
)

// Linux and the BSDs follow the XDG base directories: the gallery in
// $XDG_DATA_HOME/easel (~/.local/share/easel), the profiles in
// $XDG_CONFIG_HOME/easel (~/.config/easel). These are the folders every
// Easel before this one used; they must not change.

func dataDir() (string, error) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "easel"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "easel"), nil
}

func configDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "easel"), nil
}
