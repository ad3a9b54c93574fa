package atomicfile

import "os"

// private only checks the file is there: on Windows a file is private by
// its folder's ACL, which the user's profile folders already restrict to
// the user; mode bits do not exist there.
func private(path string) error {
	_, err := os.Stat(path)
	return err
}
