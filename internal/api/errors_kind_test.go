package api

import (
	"testing"

	"easel/internal/catalogue"
)

// Every kind has a stable code, different from the others, and a kept
// kind reads back by its code in any language, or by its words in the
// language spoken (rows kept before codes).
func TestKindCodesReadBackInAnyLanguage(t *testing.T) {
	seen := map[string]bool{}
	for k := KindUnknown; k <= KindLast; k++ {
		c := k.Code()
		if c == "" || seen[c] {
			t.Fatalf("kind %d has the code %q, empty or taken", k, c)
		}
		seen[c] = true
	}
	catalogue.Use("zh_CN.UTF-8")
	defer catalogue.Use("en")
	if k, ok := KindOf(KindInsufficientBalance.Code()); !ok || k != KindInsufficientBalance {
		t.Errorf("a code kept in English read back in Chinese as %v %v", k, ok)
	}
	if k, ok := KindOf(KindAuth.String()); !ok || k != KindAuth {
		t.Errorf("words kept before codes read back as %v %v", k, ok)
	}
	if _, ok := KindOf("something else"); ok {
		t.Error("an unknown kind reads as known")
	}
}
