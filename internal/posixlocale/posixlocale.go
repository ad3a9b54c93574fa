// Package posixlocale keeps Fyne from logging an error at start-up on
// machines whose locale is "C" or "POSIX" (containers, CI, ssh sessions):
// Fyne's lang package parses the locale in its init and logs a line on
// stderr when it is not a language tag, which would break the command
// line's promise of one line per failure.
//
// main imports this package for its side effect. Go initialises packages
// in import-path order once their own imports are ready, so this one
// ("easel/…", importing only os and strings) runs before "fyne.io/…".
package posixlocale

import (
	"os"
	"strings"
)

func init() {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); isPOSIX(v) && v != "" {
			// The C locale means "no language chosen": English is what
			// Fyne would fall back to anyway.
			_ = os.Setenv(k, "en_US.UTF-8")
		}
	}
}

func isPOSIX(v string) bool {
	base, _, _ := strings.Cut(v, ".")
	return base == "C" || base == "POSIX"
}
