//go:build unix

package atomicfile

import (
	"fmt"
	"os"
)

// private says why the file at path is readable by others, nil when it
// is not: its mode is 0600.
func private(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if st.Mode().Perm() != 0o600 {
		return fmt.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	return nil
}
