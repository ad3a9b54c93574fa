package api

import (
	"strings"
	"unicode/utf8"
)

// keyStream redacts the key from text that arrives in pieces (a chat
// reply's deltas), where a piece may carry only part of it. A key holds
// no white space, so the text is emitted up to its last white space,
// redacted, and the word after it is held until it ends (or grows past
// any key, when all but its last len(key)-1 bytes go); Flush emits what
// is held. What is emitted is the whole text redacted as Redact would,
// a word late.
type keyStream struct {
	key  string
	emit func(string)
	held string
}

func newKeyStream(key string, emit func(string)) *keyStream {
	return &keyStream{key: key, emit: emit}
}

// Write takes the next piece.
func (k *keyStream) Write(piece string) {
	if k.key == "" {
		k.emit(piece)
		return
	}
	k.held += piece
	cut := strings.LastIndexAny(k.held, " \t\r\n") + 1
	if cut == 0 && len(k.held) > 4*len(k.key) {
		// One long word: what cannot be the start of a key goes.
		cut = len(k.held) - (len(k.key) - 1)
		for cut > 0 && cut < len(k.held) && !utf8.RuneStart(k.held[cut]) {
			cut--
		}
	}
	if cut > 0 {
		k.emit(redactWords(k.held[:cut], k.key))
		k.held = k.held[cut:]
	}
}

// redactWords is s with the key redacted from each word: a key holds no
// white space, and a word at a time gives the same text however the
// pieces fell.
func redactWords(s, key string) string {
	var b strings.Builder
	start := 0
	for i, r := range s {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			b.WriteString(Redact(s[start:i], key))
			b.WriteRune(r)
			start = i + 1
		}
	}
	b.WriteString(Redact(s[start:], key))
	return b.String()
}

// Flush emits what is held: the text has ended.
func (k *keyStream) Flush() {
	if k.held != "" {
		k.emit(redactWords(k.held, k.key))
		k.held = ""
	}
}
