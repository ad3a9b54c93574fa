//go:build !windows

package imagefolder

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A linked image is offered and a linked folder opens, as their targets
// would. (Windows makes links only with a privilege; there, links are
// not tested.)
func TestLinksAreFollowed(t *testing.T) {
	dir := t.TempDir()
	target := t.TempDir()
	if err := os.WriteFile(filepath.Join(target, "a.png"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(target, "a.png"), filepath.Join(dir, "linked.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "shelf")); err != nil {
		t.Fatal(err)
	}
	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l.Images, []string{"linked.png"}) || !reflect.DeepEqual(l.Folders, []string{"shelf"}) {
		t.Errorf("images %v, folders %v; want the linked image and the linked folder", l.Images, l.Folders)
	}
}
