// Package appdirs says where Easel keeps its things on each platform, by
// that platform's convention: a designer who looks for Easel's gallery
// finds it where the system's other apps keep theirs, and a user whose
// profile roams between Windows machines takes the profiles along but
// not gigabytes of images. The gallery and the profiles are apart on
// purpose: the profiles are settings, the gallery is data.
//
// Linux keeps the folders Easel has always used (XDG), so no existing
// gallery or profiles file moves; see dirs_*.go for the others.
package appdirs

import (
	"os"
	"path/filepath"
)

// Data is the folder of the gallery: $EASEL_HOME when set (tests, a
// portable copy on a USB drive), else the platform's folder for an app's
// local data.
func Data() (string, error) {
	if h := os.Getenv("EASEL_HOME"); h != "" {
		return h, nil
	}
	return dataDir()
}

// ProfilesFile is the file that holds the profiles (never a key), in the
// platform's folder for an app's settings.
func ProfilesFile() (string, error) {
	dir, err := configDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "profiles.json"), nil
}
