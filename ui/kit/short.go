package kit

import (
	"strings"
)

// Short is s on one line, cut to n characters with an ellipsis.
func Short(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}
