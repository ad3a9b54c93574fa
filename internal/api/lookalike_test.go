package api

import (
	"strings"
	"testing"
)

// An id that mixes Latin with lookalike letters is marked; Latin ids and
// ids wholly in another script are not.
func TestLookalikeIDsAreMarked(t *testing.T) {
	if note := Lookalike("gpt-image-1"); note != "" {
		t.Errorf("a Latin id is marked: %q", note)
	}
	if note := Lookalike("gpt-imаge-1"); !strings.Contains(note, "Cyrillic") || !strings.Contains(note, "а") { // Cyrillic а
		t.Errorf("a Cyrillic а goes unmarked: %q", note)
	}
	if note := Lookalike("модель"); note != "" {
		t.Errorf("a wholly Cyrillic id is marked: %q", note)
	}
	// The closest names offered for a missing model say so too.
	e := &Error{Kind: KindUnknownModel, Suggestions: ClosestModels("gpt-image-1", []string{"gpt-imаge-1", "dall-e-3"})}
	if h := hintFor(e, "gpt-image-1"); !strings.Contains(h, "Cyrillic") {
		t.Errorf("the hint does not mark the lookalike: %q", h)
	}
}

// An id with a no-break space, a Unicode hyphen or an invisible character
// is marked: it reads as the plain id and is another.
func TestLookalikeSpacesAndHyphensAreMarked(t *testing.T) {
	for id, mark := range map[string]string{
		"gpt‐image‐1":       "U+2010",
		"gpt-image-1\u00a0": "U+00A0",
		"gpt-image\u200b-1": "U+200B",
		"gpt–image-1":       "U+2013",
	} {
		if note := Lookalike(id); !strings.Contains(note, mark) {
			t.Errorf("%q: %q", id, note)
		}
	}
	if note := Lookalike("gpt-image-1"); note != "" {
		t.Errorf("the plain id is marked: %q", note)
	}
}
