package api

import (
	"strings"
	"testing"
)

// Pieces of any size, the key split anywhere among them: what is emitted
// is the text with each word redacted, and no part of the key of 8 bytes
// or more is ever emitted, even in a word longer than any key.
func TestTheKeyIsRedactedAcrossPieces(t *testing.T) {
	const key = "sk-abcdefghijklmnopqrstuvwx"
	text := "before " + key + " middle é " + key[:12] + " partial " + key + ". " + strings.Repeat("x", 200) + key + "y"
	var want strings.Builder
	for i, word := range strings.Split(text, " ") {
		if i > 0 {
			want.WriteString(" ")
		}
		want.WriteString(Redact(word, key))
	}
	for size := 1; size <= len(text); size += 3 {
		var out strings.Builder
		k := newKeyStream(key, func(s string) {
			for i := 0; i+8 <= len(key); i++ {
				if strings.Contains(s, key[i:i+8]) {
					t.Fatalf("size %d: emitted %q, a part of the key", size, s)
				}
			}
			out.WriteString(s)
		})
		for i := 0; i < len(text); i += size {
			k.Write(text[i:min(len(text), i+size)])
		}
		k.Flush()
		got := out.String()
		for i := 0; i+8 <= len(key); i++ {
			if strings.Contains(got, key[i:i+8]) {
				t.Fatalf("size %d: the whole output holds a part of the key: %q", size, got)
			}
		}
		// The long word's end may be cut where a piece fell: the rest is
		// the text word by word.
		head := strings.Split(want.String(), "xxxx")[0]
		if !strings.HasPrefix(got, head) || !strings.HasSuffix(got, "[key]y") {
			t.Fatalf("size %d: %q, want %q", size, got, want.String())
		}
	}
}

// A one-character key (a local server's "x") never cuts past the text
// held: a long word once indexed one byte beyond it and crashed Chat.
func TestAShortKeyStreamsWithoutCrashing(t *testing.T) {
	var out strings.Builder
	k := newKeyStream("x", func(s string) { out.WriteString(s) })
	for _, piece := range []string{"hello,", "world", "!", " and x too"} {
		k.Write(piece)
	}
	k.Flush()
	if got := out.String(); got != "hello,world! and [key] too" {
		t.Errorf("streamed %q", got)
	}
}
