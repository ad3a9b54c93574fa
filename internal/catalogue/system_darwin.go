//go:build darwin

package catalogue

import (
	"os/exec"
	"strings"
)

// systemLanguages are the user's preferred languages, as System
// Settings ▸ General ▸ Language & Region orders them (AppleLanguages):
// an app started from the Finder has no LANG.
func systemLanguages() []string {
	out, err := exec.Command("defaults", "read", "-g", "AppleLanguages").Output()
	if err != nil {
		return nil
	}
	// The answer is a property list: ( "zh-Hans-CN", "en-GB" ).
	var langs []string
	for _, f := range strings.FieldsFunc(string(out), func(r rune) bool { return strings.ContainsRune("(),\n\" ", r) }) {
		langs = append(langs, f)
	}
	return langs
}
