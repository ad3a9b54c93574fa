// Package wording turns messages into the sentences Easel shows: several
// problems joined in one dialog or banner each read as a sentence. It is
// shared by the library (its notices) and the window (its dialogs), which
// must word alike.
package wording

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is s capitalised and ending in a full stop. A message that
// begins with a file's name ("damaged.png looks like…") keeps the name as
// it is: a capital would name another file.
func Sentence(s string) string {
	if s == "" {
		return s
	}
	first, _, _ := strings.Cut(s, " ")
	first = strings.TrimRight(first, ".,:;")
	if !strings.ContainsAny(first, "./\\_") {
		r, n := utf8.DecodeRuneInString(s)
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}
