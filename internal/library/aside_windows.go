package library

import "os"

// mine reports whether dir is a folder: on Windows the temporary folder
// and the cache are the user's own (%LOCALAPPDATA%), guarded by their
// access lists, and a folder's mode bits say nothing of who may write.
func mine(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}
