//go:build !linux && !darwin && !windows

package atomicfile

// link puts tmp at path unless path is taken. The BSDs have no portable
// rename that refuses to replace, so a hard link (which fails when the
// name exists) and the temporary name removed.
func link(tmp, path string) error { return linkAndUnlink(tmp, path) }
