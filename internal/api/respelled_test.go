package api

import (
	"encoding/base64"
	"strings"
	"testing"
)

// A key a service sends back spelled another way is removed too:
// reversed, or in base64 inside a longer text at any alignment.
func TestRespelledKeysAreRedacted(t *testing.T) {
	const key = "sk-live-0123456789abcdefGHIJ"
	rev := []rune(key)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	cases := []string{"reversed: " + string(rev)}
	for _, prefix := range []string{"", "a", "ab", "Authorization: Bearer "} {
		cases = append(cases, "b64: "+base64.StdEncoding.EncodeToString([]byte(prefix+key+" trailing")))
		cases = append(cases, "b64url: "+base64.URLEncoding.EncodeToString([]byte(prefix+key)))
	}
	for _, c := range cases {
		got := Redact(c, key)
		if !strings.Contains(got, "[key]") {
			t.Errorf("%q kept as %q", c, got)
		}
	}
	if got := Redact("an ordinary sentence about a proxy", key); got != "an ordinary sentence about a proxy" {
		t.Errorf("plain text changed: %q", got)
	}
}
