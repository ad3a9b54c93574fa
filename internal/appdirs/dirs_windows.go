package appdirs

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// Windows separates what roams with the user between machines
// (%APPDATA%, the profiles: small settings) from what stays on this one
// (%LOCALAPPDATA%, the gallery: gigabytes a roaming profile must not
// copy at every sign-in). The folders come from the shell's known-folder
// API, not the environment, which a launcher may not pass on.

func dataDir() (string, error) { return known(windows.FOLDERID_LocalAppData) }

func configDir() (string, error) { return known(windows.FOLDERID_RoamingAppData) }

// known is Easel's folder inside the known folder id.
func known(id *windows.KNOWNFOLDERID) (string, error) {
	dir, err := windows.KnownFolderPath(id, windows.KF_FLAG_DEFAULT)
	if err != nil {
		return "", fmt.Errorf("appdirs: the user's application data folder: %w", err)
	}
	return filepath.Join(dir, "Easel"), nil
}
