package appdirs

import (
	"testing"
)

// EASEL_HOME wins on every platform: tests and portable copies rely on it.
func TestEaselHomeWins(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("EASEL_HOME", dir)
	if got, err := Data(); err != nil || got != dir {
		t.Errorf("Data() = %q, %v; want %q", got, err, dir)
	}
}
