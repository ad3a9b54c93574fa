package catalogue

import (
	"os"
	"strings"
)

// fromEnvironment are the languages the POSIX variables ask for, most
// preferred first: LANGUAGE (a colon-separated list), then LC_ALL,
// LC_MESSAGES and LANG, the first that is set. "C" and "POSIX" ask for
// none.
func fromEnvironment(getenv func(string) string) []string {
	var out []string
	if l := getenv("LANGUAGE"); l != "" {
		out = append(out, strings.Split(l, ":")...)
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			return append(out, v)
		}
	}
	return out
}

// System are the languages the user's system asks for, most preferred
// first (LANG and LC_* on Linux; the user's UI languages on Windows and
// macOS, after any LANG a shell set).
func System() []string { return append(fromEnvironment(os.Getenv), systemLanguages()...) }

// Choose speaks chosen, the language picked in Settings, or when it is
// empty the system's; it returns the tag spoken.
func Choose(chosen string) string {
	if chosen != "" {
		return Use(chosen)
	}
	return Use(System()...)
}
