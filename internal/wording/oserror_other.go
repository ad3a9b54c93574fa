//go:build !unix && !windows

package wording

// platformProblem knows no system codes where Easel does not run (wasm):
// the portable checks in Classify still apply.
func platformProblem(error) Problem { return Unknown }
