//go:build unix && !darwin

package catalogue

// systemLanguages adds nothing on Linux and the BSDs: the environment is
// where the desktop puts the user's language.
func systemLanguages() []string { return nil }
