package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteReplacesWholeAndPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "f.json")
	if err := Write(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "two" {
		t.Fatalf("read %q, %v; want two", got, err)
	}
	if err := private(path); err != nil {
		t.Error(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), TempSuffix) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestWriteFailureLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := Write(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	// A folder in the way of the rename makes the write fail after the
	// temporary file exists.
	if err := Write(filepath.Join(dir, "f", "x"), []byte("new")); err == nil {
		t.Fatal("writing under a file succeeded")
	}
	got, _ := os.ReadFile(path)
	if string(got) != "old" {
		t.Fatalf("old file now %q", got)
	}
}

func TestWriteNewNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.png")
	if err := WriteNew(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(path, []byte("second")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a second write: %v, want ErrExist", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "first" {
		t.Errorf("the first file now holds %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

// A dangling link at the name counts as taken: nothing is written
// through it to another place.
func TestWriteNewNeverWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "link.png")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Skipf("cannot make a link here (Windows asks for a privilege): %v", err)
	}
	if _, err := os.Lstat(dangling); err != nil {
		t.Skip("the system said it made a link, but there is none (Wine 8 stubs CreateSymbolicLink)")
	}
	if err := WriteNew(dangling, []byte("x")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a write over a dangling link: %v, want ErrExist", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("the write went through the link")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}
