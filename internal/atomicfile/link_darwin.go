package atomicfile

import "golang.org/x/sys/unix"

// renameNoReplace is macOS's one-step rename that refuses to replace:
// renameatx_np with RENAME_EXCL (APFS and HFS+; not SMB or FAT drives).
func renameNoReplace(tmp, path string) error {
	return unix.RenameatxNp(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCL)
}
