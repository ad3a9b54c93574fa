package config

import "os"

// private only checks the file is there: on Windows the profiles file is
// private by its folder (%APPDATA%, the user's alone); there are no mode
// bits to check.
func private(path string) error {
	_, err := os.Stat(path)
	return err
}
