package cli

import (
	"os"
	"strings"

	"easel/internal/catalogue"
)

// Unknown says whether arg, given where a file to open or a command goes,
// is a mistyped command rather than a file: a bare word that names no
// file ("outpaint"). It returns the sentence to print, suggesting the
// nearest command.
func Unknown(arg string) (string, bool) {
	if arg == "" || strings.ContainsAny(arg, `/\.`) || strings.HasPrefix(arg, "-") {
		return "", false
	}
	if _, err := os.Stat(arg); err == nil {
		return "", false
	}
	best, dist := "", 1<<30
	for _, c := range Commands {
		if d := distance(arg, c); d < dist {
			best, dist = c, d
		}
	}
	if dist <= max(2, len(arg)/3) {
		return catalogue.F("unknown command %q; did you mean %q? Commands: %s", arg, best, strings.Join(Commands, ", ")), true
	}
	return catalogue.F("unknown command %q, and no file of that name; commands: %s", arg, strings.Join(Commands, ", ")), true
}

// distance is the edit distance between a and b (insertions, deletions
// and substitutions of one character).
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
