package api

import (
	"strings"
	"unicode/utf8"
)

// Clean makes text a service sent safe to show a person, in a terminal or
// the window: terminal escape sequences (clear-screen, window titles,
// OSC 52 clipboard writes, hyperlinks) are removed whole, other control
// characters (BEL, backspace, NUL, C1 controls) and bidirectional
// overrides, which can make text read as something else, are removed, and
// invalid UTF-8 is replaced. Newlines and tabs are kept when multiline;
// otherwise they become spaces, so one field stays on one line.
func Clean(s string, multiline bool) string {
	if isPlain(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b: // ESC: skip the whole sequence
			i += escapeLen(s[i:])
			continue
		case r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 CSI, OSC, DCS…: same
			i += size + sequenceBody(s[i+size:], r)
			continue
		case r == '\n' || r == '\t':
			if multiline {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case r == '\r':
			if !multiline {
				b.WriteByte(' ')
			}
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f), isBidiControl(r):
			// removed
		case isInvisible(r) && !(r == 0x200d && joinsEmoji(s, i, size)):
			// removed: it hides a word's true spelling (a key, a
			// model id) from the person reading it
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII (plus spaces): the common
// case, returned as it is.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isBidiControl reports the explicit directional formatting characters
// (embeddings, overrides, isolates and the marks), which reorder what
// follows them on screen.
// isInvisible reports a character that draws nothing: zero-width
// spaces and joiners, word joiners, the BOM, soft hyphens, fillers.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x200b && r <= 0x200d, r >= 0x2060 && r <= 0x2064, r == 0xfeff, r == 0x00ad, r == 0x180e,
		r == 0x034f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0:
		return true
	}
	return false
}

// joinsEmoji reports a zero-width joiner between two emoji (a family,
// a profession): it draws one picture, and is kept.
func joinsEmoji(s string, i, size int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+size:])
	return before >= 0x2600 && after >= 0x2600
}

func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// escapeLen is the length of the escape sequence at the start of s (s[0]
// is ESC): CSI up to its final byte, OSC/DCS/PM/APC/SOS up to their
// terminator, or ESC and one character.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + sequenceBody(s[2:], 0x9b)
	case ']', 'P', 'X', '^', '_':
		return 2 + sequenceBody(s[2:], 0x9d)
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size
}

// sequenceBody is the length of a control sequence's body after its
// introducer: for CSI (0x9b) parameters up to the final byte; for string
// sequences up to BEL or ST (ESC \ or 0x9c). An unterminated sequence runs
// to the end of s.
func sequenceBody(s string, kind rune) int {
	if kind == 0x9b {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			} else if c < 0x20 || c > 0x7e {
				return i // not a CSI byte: the sequence was broken off
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // U+009C, ST
			return i + 2
		}
	}
	return len(s)
}
