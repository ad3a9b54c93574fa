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

func TestWriteFreePassesOverTakenNamesAndLinks(t *testing.T) {
	dir := t.TempDir()
	name := func(i int) string { return []string{"a.png", "a-2.png", "a-3.png"}[i] }
	if err := os.WriteFile(filepath.Join(dir, "a.png"), []byte("earlier"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The second name is a dangling link where the system makes one
	// (Windows asks for a privilege; Wine 8 says it made one and did
	// not), else a file: taken either way.
	second := filepath.Join(dir, "a-2.png")
	if err := os.Symlink(filepath.Join(dir, "target"), second); err != nil || !linked(second) {
		if err := os.WriteFile(second, []byte("earlier"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path, err := WriteFree(dir, 3, name, []byte("new"))
	if err != nil || path != filepath.Join(dir, "a-3.png") {
		t.Fatalf("WriteFree = %q, %v; want a-3.png", path, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.png")); string(b) != "earlier" {
		t.Errorf("the taken name was replaced: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "target")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the link was written through: %v", err)
	}
	path, err = WriteFree(dir, 3, name, []byte("more"))
	if !errors.Is(err, fs.ErrExist) || path != filepath.Join(dir, "a.png") {
		t.Errorf("every name taken: WriteFree = %q, %v; want a.png and ErrExist", path, err)
	}
}

// linked says whether there is anything at path, a dangling link too.
func linked(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
