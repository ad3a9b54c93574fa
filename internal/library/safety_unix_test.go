//go:build unix

package library

import (
	"bytes"
	"context"
	"errors"
	"image/color"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"easel/internal/wording"
)

// asAnotherUser is the test binary and the credentials to run the
// read-only helper with: this process itself, unless it is root, who
// writes whatever the mode says; then nobody, who owns the folder but not
// the index, from a copy of this test binary that nobody can reach.
func asAnotherUser(t *testing.T, dir string, wholeFolder bool) (string, *syscall.SysProcAttr) {
	if os.Getuid() != 0 {
		return os.Args[0], nil
	}
	const nobody = 65534
	_ = filepath.WalkDir(dir, func(q string, _ fs.DirEntry, _ error) error { return os.Lchown(q, nobody, nobody) })
	os.Chown(filepath.Join(dir, dbName), 0, 0)
	if wholeFolder {
		os.Remove(filepath.Join(dir, "library.lock"))
		os.Chown(dir, 0, 0)
		os.Chmod(dir, 0o755)
	}
	bin := t.TempDir()
	exe := filepath.Join(bin, "library.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, leaf := range []string{dir, bin} {
		for p := filepath.Dir(leaf); p != "/"; p = filepath.Dir(p) {
			if st, err := os.Stat(p); err == nil {
				os.Chmod(p, st.Mode().Perm()|0o011)
			}
		}
	}
	return exe, &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
}

// The library's folders are 0700 and its files 0600, whatever existed
// before: another local user must not read a designer's prompts.
func TestTheLibraryIsPrivateWhateverExisted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lib")
	copyTree(t, filepath.Join("testdata", "v0", "library"), dir) // 0755 folders, 0644 files
	os.Chmod(dir, 0o755)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := l.Add(ctx, NewItem{Image: pngOf(t, 8, 8, color.NRGBA{A: 255}), Kind: "generate", Prompt: "x"}); err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for p, want := range map[string]os.FileMode{
		dir: 0o700, filepath.Join(dir, "images"): 0o700, filepath.Join(dir, "thumbs"): 0o700,
		filepath.Join(dir, dbName): 0o600, filepath.Join(dir, dbName+"-wal"): 0o600, filepath.Join(dir, dbName+"-shm"): 0o600,
	} {
		st, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", filepath.Base(p), st.Mode().Perm(), want)
		}
	}
}

// On a real full disk (a small tmpfs, where this machine allows mounting
// one) CanSave says so, and a save that fails leaves no file, no row and
// no pending record.
func TestAFullDiskIsToldBeforeAndLosesNothing(t *testing.T) {
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small disk here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	l, err := Open(mnt)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var space *SpaceError
	if err := l.CanSave(1, 1<<20); !errors.As(err, &space) {
		t.Errorf("CanSave on a 2 MB disk: %v", err)
	}
	big := pngOf(t, 8, 8, color.NRGBA{A: 255})
	big.Data = append(big.Data, bytes.Repeat([]byte{0}, 3<<20)...)
	ctx := context.Background()
	if _, err := l.Add(ctx, NewItem{Image: big, Kind: "generate", Prompt: "too big"}); wording.Classify(err) != wording.DiskFull {
		t.Errorf("saving onto a full disk: %v, want ENOSPC", err)
	}
	if n, _ := l.Count(ctx, Query{}); n != 0 {
		t.Errorf("%d rows after a failed save", n)
	}
	var pending int
	_ = l.db.QueryRow(`SELECT count(*) FROM pending`).Scan(&pending)
	if pending != 0 {
		t.Errorf("%d pending records after a failed save", pending)
	}
	if hasImages(filepath.Join(mnt, "images")) {
		t.Error("a file was left by the failed save")
	}
}
