package api

import (
	"fmt"
	"strings"
	"unicode"

	"easel/internal/catalogue"
)

// scripts are the writing systems whose letters pass for Latin ones.
var scripts = []struct {
	name  string
	table *unicode.RangeTable
}{{"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek}, {"Armenian", unicode.Armenian}, {"Cherokee", unicode.Cherokee}}

// Lookalike says, for a model id that mixes Latin letters with letters of
// a script that looks like them ("gpt-іmage-1" with a Cyrillic і), which
// letters are foreign, as a note to show beside the id; "" for an id in
// one script. A gateway can list such an id to take requests meant for
// the real one.
func Lookalike(id string) string {
	latin := false
	var foreign, marks []string
	name := ""
	for _, r := range id {
		if unicode.Is(unicode.Latin, r) {
			latin = true
			continue
		}
		if r > unicode.MaxASCII && (unicode.IsSpace(r) || unicode.Is(unicode.Pd, r) || unicode.Is(unicode.Cf, r)) {
			// A no-break space, a Unicode hyphen or dash, an invisible
			// format character: each passes for the ASCII one, or for
			// nothing.
			marks = append(marks, fmt.Sprintf("U+%04X", r))
			continue
		}
		for _, s := range scripts {
			if unicode.Is(s.table, r) {
				foreign = append(foreign, string(r))
				name = s.name
			}
		}
	}
	switch {
	case len(marks) > 0:
		return catalogue.F("holds characters that pass for a space or a hyphen (%s): it only looks like the plain name", strings.Join(marks, " "))
	case !latin || len(foreign) == 0:
		return ""
	}
	return catalogue.F("mixes Latin with %s letters (%s): it only looks like a Latin name", name, strings.Join(foreign, " "))
}

// MarkLookalike is id with its Lookalike note, if it has one.
func MarkLookalike(id string) string {
	if note := Lookalike(id); note != "" {
		return id + " (" + note + ")"
	}
	return id
}

// MarkAll is ids, each with its Lookalike note, for a list a person reads.
func MarkAll(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = MarkLookalike(id)
	}
	return out
}
