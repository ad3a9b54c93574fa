// Package wording turns messages into the sentences Easel shows: several
// problems joined in one dialog or banner each read as a sentence. It is
// shared by the library (its notices) and the window (its dialogs), which
// must word alike.
package wording

import (
	"errors"
	"os"
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
	return FullStop(s)
}

// FullStop is s ended as a sentence: as it is when it ends in a stop, a
// question or an exclamation mark already, else with "。" when it is
// written in Chinese (or Japanese) and "." otherwise. A Chinese sentence
// ending in an ASCII full stop looks broken.
func FullStop(s string) string {
	if s == "" {
		return s
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	if strings.ContainsRune(".?!。？！…", last) {
		return s
	}
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			return s + "。"
		}
	}
	return s + "."
}

// PathCause is err without the path and operation of a *os.PathError,
// for a message that names the file itself: "cannot open a.png: no such
// file or folder", not the path twice. A cause Easel knows (a full disk,
// a read-only one, a file another program holds) is said in the same
// words on every platform, never in the system's own text, which on
// Windows comes in the system's language.
func PathCause(err error) error {
	if p := Classify(err); p != Unknown {
		return errors.New(p.String())
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
