package atomicfile

import "golang.org/x/sys/unix"

// renameNoReplace is Linux's one-step rename that refuses to replace:
// renameat2 with RENAME_NOREPLACE (ext4, XFS, Btrfs, tmpfs; not every
// network or FUSE file system).
func renameNoReplace(tmp, path string) error {
	return unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_NOREPLACE)
}
