//go:build !unix && !windows

package catalogue

// systemLanguages knows no system's languages where Easel does not run
// (wasm).
func systemLanguages() []string { return nil }
