package architecture

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fzipp/gocyclo"
)

// maxComplexity is the cyclomatic complexity a new function may reach.
// The functions over it when the ceiling came down are listed in
// testdata/complexity-baseline.txt with their figures, which may only
// go down: the test fails when one grows, when one shrinks and the file
// still holds the old figure, and when a function not listed passes the
// ceiling.
const maxComplexity = 15

func TestNoFunctionGrowsMoreComplex(t *testing.T) {
	baseline := readBaseline(t, "testdata/complexity-baseline.txt")
	seen := map[string]bool{}
	for _, s := range gocyclo.Analyze([]string{"../.."}, regexp.MustCompile(`_test\.go$`)) {
		if s.Complexity <= maxComplexity {
			continue
		}
		key := baselineKey(s)
		seen[key] = true
		base, listed := baseline[key]
		switch {
		case !listed:
			t.Errorf("%s has complexity %d (at most %d): split it", key, s.Complexity, maxComplexity)
		case s.Complexity > base:
			t.Errorf("%s has complexity %d, over its baseline of %d: split it", key, s.Complexity, base)
		case s.Complexity < base:
			t.Errorf("%s has complexity %d, under its baseline of %d: lower the baseline", key, s.Complexity, base)
		}
	}
	for key, base := range baseline {
		if !seen[key] {
			t.Errorf("the baseline names %s (%d), which is at most %d now or gone: remove it", key, base, maxComplexity)
		}
	}
}

// baselineKey names a function by its file and name: a line number moves
// with every edit above it, and a package may hold two mains (testdata).
func baselineKey(s gocyclo.Stat) string {
	file, err := filepath.Rel("../..", s.Pos.Filename)
	if err != nil {
		file = s.Pos.Filename
	}
	return filepath.ToSlash(file) + " " + s.FuncName
}

// readBaseline reads lines of "complexity file function"; # starts a
// comment.
func readBaseline(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n, key, ok := strings.Cut(line, " ")
		v, err := strconv.Atoi(n)
		if !ok || err != nil {
			t.Fatalf("%s: %q is not \"complexity file function\"", path, line)
		}
		out[key] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
