package kit

import (
	"unicode"
	"unicode/utf8"

	"easel/internal/wording"
)

// Sentences are the service's departures (honesty.Report.Sentences,
// worded to follow "Service: " in a list) each standing alone, as a job
// card and a comparison board's cell show them: capitalised, and ended
// with the language's full stop.
func Sentences(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if r, size := utf8.DecodeRuneInString(s); size > 0 {
			s = wording.FullStop(string(unicode.ToUpper(r)) + s[size:])
		}
		out[i] = s
	}
	return out
}
