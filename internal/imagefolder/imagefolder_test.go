package imagefolder

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A folder lists its subfolders and its images by name, whatever their
// case, without hidden entries or files of other kinds; the places are
// the ones that exist; the picker starts where it was last, else in
// Pictures, else at home.
func TestListingPlacesAndStart(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "Pictures")
	for _, d := range []string{"Pictures/moodboard", "Pictures/Archive", "Pictures/.cache", "Desktop"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"b.PNG", "a.jpg", "c.webp", "notes.txt", ".hidden.png", "clip.mp4", "scan.tiff"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Archive", "moodboard"}; !reflect.DeepEqual(l.Folders, want) {
		t.Errorf("folders %v, want %v", l.Folders, want)
	}
	if want := []string{"a.jpg", "b.PNG", "c.webp", "scan.tiff"}; !reflect.DeepEqual(l.Images, want) {
		t.Errorf("images %v, want %v", l.Images, want)
	}
	if _, err := List(filepath.Join(home, "gone")); err == nil {
		t.Error("a missing folder lists without an error")
	}
	var names []string
	for _, p := range Places(home) {
		names = append(names, p.Name)
	}
	if want := []string{"Home", "Pictures", "Desktop"}; !reflect.DeepEqual(names, want) {
		t.Errorf("places %v, want %v (no Downloads here)", names, want)
	}
	if got := Start(filepath.Join(dir, "moodboard"), home); got != filepath.Join(dir, "moodboard") {
		t.Errorf("start %s, want the last folder", got)
	}
	if got := Start(filepath.Join(home, "gone"), home); got != dir {
		t.Errorf("start %s with the last folder gone, want Pictures", got)
	}
	if got := Start("", t.TempDir()); got == "" {
		t.Error("no start without Pictures")
	}
}
