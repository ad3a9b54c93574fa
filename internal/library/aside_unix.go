//go:build !windows

package library

import "os"

// mine reports whether dir, just made or found, is a folder no one else
// may write into: in the shared temporary folder, one someone else
// prepared could swap the paid images before the next start takes them in.
func mine(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir() && st.Mode().Perm()&0o022 == 0
}
