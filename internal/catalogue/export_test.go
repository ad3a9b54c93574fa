package catalogue

import (
	"sort"

	"golang.org/x/text/language"
)

// Has reports whether tag's file has a message for text, for the tests.
func Has(tag, text string) bool {
	m, ok := messages[language.Make(tag)][text]
	return ok && m.Other != ""
}

// Keys are every message of tag's file, for the tests.
func Keys(tag string) []string {
	var out []string
	for k := range messages[language.Make(tag)] {
		if k != nameKey {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
