package appdirs

import (
	"os"
	"path/filepath"
)

// macOS keeps an app's data and settings together in
// ~/Library/Application Support/<App>; Time Machine backs it up, and
// Finder hides it from the home folder's clutter.

func dataDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "Library", "Application Support", "Easel"), nil
}

func configDir() (string, error) { return dataDir() }
