//go:build windows

package catalogue

import "golang.org/x/sys/windows"

// systemLanguages are the user's preferred UI languages, as Windows'
// Settings ▸ Time & language orders them.
func systemLanguages() []string {
	langs, err := windows.GetUserPreferredUILanguages(windows.MUI_LANGUAGE_NAME)
	if err != nil {
		return nil
	}
	return langs
}
