package dialogs

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"easel/internal/testsupport/fixture"
	"easel/ui/room/roomtest"
)

// The picker shows a folder's images with their previews and no other
// files, hands over several at once in the order they were clicked, and
// opens the folder it was last in.
func TestImagePickerChoosesSeveralInOrder(t *testing.T) {
	h := roomtest.New(t)
	dir := t.TempDir()
	buf := fixture.PNG(t, image.NewGray(image.Rect(0, 0, 300, 200)))
	for _, name := range []string{"a.png", "b.png", "c.png"} {
		if err := os.WriteFile(filepath.Join(dir, name), buf, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "more"), 0o755); err != nil {
		t.Fatal(err)
	}
	var got []string
	var p *ImagePicker
	h.UI(func() {
		p = PickImages(h, "Add images", "Add", func(paths []string) { got = paths })
		p.Open(dir)
		if len(p.listing.Images) != 3 || len(p.listing.Folders) != 1 {
			t.Fatalf("the folder shows %v and %v", p.listing.Images, p.listing.Folders)
		}
		if !p.confirm.Disabled() {
			t.Error("Add is live with nothing chosen")
		}
	})
	h.Until("the previews", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.thumbs) == 3
	})
	h.UI(func() {
		p.Choose(2, 0)
		if !strings.Contains(p.chosen.Text, "c.png, a.png") {
			t.Errorf("the order chosen is not said: %q", p.chosen.Text)
		}
		p.Confirm()
	})
	if len(got) != 2 || filepath.Base(got[0]) != "c.png" || filepath.Base(got[1]) != "a.png" {
		t.Fatalf("handed over %v, want c.png then a.png", got)
	}
	h.UI(func() {
		again := PickImages(h, "Add images", "Add", func([]string) {})
		if again.listing.Dir != dir {
			t.Errorf("the picker opened on %s, not the folder it was last in", again.listing.Dir)
		}
		again.close()
	})
}

// Choosing a folder (where exports go) takes the folder shown when the
// action is pressed, opening on the one given, and leaves the image
// picker's own last folder alone.
func TestPickFolderTakesTheFolderShown(t *testing.T) {
	h := roomtest.New(t)
	start := t.TempDir()
	if err := os.Mkdir(filepath.Join(start, "exports"), 0o755); err != nil {
		t.Fatal(err)
	}
	var got string
	h.UI(func() {
		p := PickFolder(h, "Export to", "Use this folder", start, func(dir string) { got = dir })
		if p.listing.Dir != start {
			t.Errorf("opened on %s, want %s", p.listing.Dir, start)
		}
		p.Open(filepath.Join(start, "exports"))
		if p.confirm.Disabled() {
			t.Error("the action is off with a folder shown")
		}
		p.Confirm()
	})
	if got != filepath.Join(start, "exports") {
		t.Errorf("chose %q", got)
	}
	h.UI(func() {
		if last := fyne.CurrentApp().Preferences().String(pickerFolderPref); last == filepath.Join(start, "exports") {
			t.Error("choosing an export folder moved the image picker's last folder")
		}
	})
}

// Choosing one image (a missing item's file, a mask): a Ctrl+click
// chooses the image clicked instead of adding it, and done gets the one.
func TestPickImageTakesOne(t *testing.T) {
	h := roomtest.New(t)
	dir := t.TempDir()
	buf := fixture.PNG(t, image.NewGray(image.Rect(0, 0, 30, 20)))
	for _, name := range []string{"a.png", "b.png"} {
		if err := os.WriteFile(filepath.Join(dir, name), buf, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var got string
	h.UI(func() {
		p := PickImage(h, "Locate sky.png", "Use this file", func(path string) { got = path })
		p.Open(dir)
		if p.chosen.Text != "Click an image." {
			t.Errorf("the picker says %q with nothing chosen", p.chosen.Text)
		}
		p.Choose(0, 1)
		if chosen := p.Chosen(); len(chosen) != 1 || filepath.Base(chosen[0]) != "b.png" {
			t.Errorf("a second click left %v chosen, want b.png alone", chosen)
		}
		if p.chosen.Text != "b.png will be used." {
			t.Errorf("the picker says %q", p.chosen.Text)
		}
		p.Confirm()
	})
	if filepath.Base(got) != "b.png" {
		t.Fatalf("handed over %q, want b.png", got)
	}
}

// Choosing a file of one kind (a prompt library's .json) lists those
// files alone, whatever the case of their extension, with no previews
// decoded, and hands over the one chosen.
func TestPickFileListsOneKind(t *testing.T) {
	h := roomtest.New(t)
	dir := t.TempDir()
	for _, name := range []string{"a.png", "library.json", "OLD.JSON", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var got string
	h.UI(func() {
		p := PickFile(h, "Import a prompt library", "Import", ".json", "prompt library files (.json)", func(path string) { got = path })
		p.Open(dir)
		if want := []string{"library.json", "OLD.JSON"}; strings.Join(p.listing.Images, ",") != strings.Join(want, ",") {
			t.Errorf("listed %v, want %v", p.listing.Images, want)
		}
		if p.chosen.Text != "Click a file." {
			t.Errorf("the picker says %q", p.chosen.Text)
		}
		p.Choose(1)
		p.Confirm()
		p.Open(t.TempDir())
	})
	if filepath.Base(got) != "OLD.JSON" {
		t.Fatalf("handed over %q, want OLD.JSON", got)
	}
	h.UI(func() {
		p := PickFile(h, "Import a prompt library", "Import", ".json", "prompt library files (.json)", func(string) {})
		p.Open(t.TempDir())
		if p.chosen.Text != "No prompt library files (.json) here: open another folder." {
			t.Errorf("an empty folder says %q", p.chosen.Text)
		}
		p.mu.Lock()
		n := len(p.thumbs)
		p.mu.Unlock()
		if n != 0 {
			t.Errorf("%d previews decoded for files that are not images", n)
		}
	})
}
