package api

import (
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
)

// normalizeModel folds the differences people get wrong in model names:
// case, hyphens, underscores, dots and spaces.
func normalizeModel(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.', ' ', '/':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// ClosestModels returns up to three listed names nearest to name: those
// that differ only in case or punctuation first, then by edit distance.
// Names too far away to be a typo are left out.
func ClosestModels(name string, listed []string) []string {
	want := normalizeModel(name)
	type scored struct {
		id    string
		score int
	}
	var cands []scored
	for _, id := range listed {
		if id == name {
			continue
		}
		n := normalizeModel(id)
		score := levenshtein.ComputeDistance(want, n)
		if n == want {
			score = -1
		} else if strings.Contains(n, want) || strings.Contains(want, n) {
			score = min(score, 2)
		}
		if score <= max(3, len(want)/3) {
			cands = append(cands, scored{id, score})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return cands[i].id < cands[j].id
	})
	out := make([]string, 0, 3)
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].id)
	}
	return out
}
