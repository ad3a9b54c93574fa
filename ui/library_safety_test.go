package ui

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"easel/internal/api"
	"easel/internal/instance"
	"easel/internal/library"
	"easel/internal/secrets"
	"easel/internal/secrets/secretstest"
	"easel/internal/testsupport/damaged"
	"easel/internal/testsupport/fixture"
	"easel/ui/chrome"
)

// galleryWith makes a library of n images in a new folder and returns
// the folder, closed.
func galleryWith(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 16, 16)))
	for i := 0; i < n; i++ {
		if _, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 16, Height: 16},
			Kind: "generate", Prompt: "a paid poster"}); err != nil {
			t.Fatal(err)
		}
	}
	lib.Close()
	return dir
}

// appOn opens a window on the gallery in dir, with the demo service.
func appOn(t *testing.T, dir string) *App {
	t.Helper()
	t.Setenv("EASEL_HOME", dir)
	o := Options{Demo: true, ConfigPath: filepath.Join(t.TempDir(), "profiles.json"), Keys: secrets.New(secretstest.NewMemory(), 0),
		Getenv: func(string) string { return "" }}
	ea := newApp(t, test.NewTempApp(t), o)
	t.Cleanup(ea.win.Close)
	onUI(ea, func() { ea.SelectTab(TabGenerate) })
	waitFor(t, ea, "the model list", func() bool { return len(ea.generate.Options().Model.Listed()) > 0 })
	return ea
}

// refusedHint generates prompt on Text to image, waits for its card to
// say it was not sent, and returns the card's hint.
func refusedHint(t *testing.T, ea *App, prompt string) (hint string) {
	t.Helper()
	onUI(ea, func() {
		ea.SelectTab(TabGenerate)
		ea.generate.Prompt().SetText(prompt)
		ea.generate.PrimaryAction()
	})
	waitFor(t, ea, "the refusal", func() bool {
		c := onlyCard(ea.generate)
		return c != nil && strings.HasPrefix(c.Status.Text, "Not sent")
	})
	onUI(ea, func() { hint = onlyCard(ea.generate).Hint() })
	return hint
}

// A gallery whose images folder is missing (a drive not mounted) opens
// with its rows, a banner says where Easel looked, and nothing is sent
// that could not be kept.
func TestAMissingImagesFolderIsSaidInABanner(t *testing.T) {
	dir := galleryWith(t, 3)
	if err := os.Rename(filepath.Join(dir, "images"), filepath.Join(t.TempDir(), "elsewhere")); err != nil {
		t.Fatal(err)
	}
	ea := appOn(t, dir)
	msg := ea.banner.Text(chrome.BannerLibrary)
	if !strings.Contains(msg, filepath.Join(dir, "images")) || !strings.Contains(msg, "3 images") {
		t.Fatalf("banner %q does not say where Easel looked", msg)
	}
	if n, _ := ea.lib.Count(context.Background(), library.Query{}); n != 3 {
		t.Errorf("%d rows, want 3", n)
	}
	if got := refusedHint(t, ea, "one more poster"); !strings.Contains(got, "are not in "+filepath.Join(dir, "images")) {
		t.Errorf("the card %q does not say why", got)
	}
	ea.runner.Wait()
	if n, _ := ea.lib.Count(context.Background(), library.Query{}); n != 3 {
		t.Errorf("%d rows after the refused send, want 3", n)
	}
}

// A gallery folder that cannot be written is found before the request is
// paid for: the job's first step, so its card says so and nothing is
// sent. (The first paid job used to fail at save.)
func TestAnUnwritableGalleryIsToldBeforeSending(t *testing.T) {
	dir := galleryWith(t, 1)
	ea := appOn(t, dir)
	// A file where the images folder should be: no image can be written
	// there, for root as for anyone.
	images := filepath.Join(dir, "images")
	os.RemoveAll(images)
	os.WriteFile(images, []byte("in the way"), 0o600)
	onUI(ea, func() {
		ea.SelectTab(TabGenerate)
		ea.generate.Prompt().SetText("a poster")
		ea.generate.PrimaryAction()
	})
	waitFor(t, ea, "the refusal", func() bool {
		c := onlyCard(ea.generate)
		return c != nil && strings.HasPrefix(c.Status.Text, "Not sent")
	})
	onUI(ea, func() {
		c := onlyCard(ea.generate)
		if !strings.Contains(c.Hint(), images) || !strings.Contains(c.Hint(), "Nothing was sent or charged") {
			t.Errorf("the card %q does not name the folder, or say nothing was sent", c.Hint())
		}
		if !c.CanRetry() {
			t.Error("no Retry once the folder is fixed")
		}
	})
	ea.runner.Wait()
	if n, _ := ea.lib.Count(context.Background(), library.Query{}); n != 1 {
		t.Errorf("%d items after the refused send, want 1", n)
	}
}

// A gallery index with a damaged page is said as the window opens, and
// a paid request is refused before it is sent: its cost and images could
// not be recorded. (The window used to open without a word and go on
// writing into the damaged file.)
func TestADamagedIndexIsSaidAndNothingIsPaid(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	damaged.Gallery(t, dir)
	ea := appOn(t, dir)
	waitFor(t, ea, "the banner", func() bool { return strings.Contains(ea.banner.Text(chrome.BannerLibrary), "is damaged") })
	if h := refusedHint(t, ea, "a poster"); !strings.Contains(h, "is damaged") || !strings.Contains(h, "Nothing was sent or charged") ||
		strings.Contains(h, "Free some space") {
		t.Errorf("the card %q does not say why nothing was sent", h)
	}
	ea.runner.Wait()
	found, err := ea.lib.CheckFully(context.Background())
	if err == nil && len(found) == 0 {
		t.Error("the full check found nothing wrong in a damaged index")
	}
}

// `easel a.png b.jpg` opens on Edit with the files as its inputs, in
// order, whichever tab was last shown; a file that cannot be read is
// named in a dialog and the others are added.
func TestOpeningWithFilesPutsThemInEdit(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)))
	a, b := filepath.Join(dir, "a.png"), filepath.Join(dir, "b.png")
	os.WriteFile(a, buf.Bytes(), 0o600)
	os.WriteFile(b, buf.Bytes(), 0o600)
	gone := filepath.Join(dir, "gone.png")
	t.Setenv("EASEL_HOME", filepath.Join(dir, "data"))
	o := Options{Demo: true, ConfigPath: filepath.Join(dir, "profiles.json"), Keys: secrets.New(secretstest.NewMemory(), 0),
		Getenv: func(string) string { return "" }, Files: []string{b, gone, a}}
	ea := newApp(t, test.NewTempApp(t), o)
	t.Cleanup(ea.win.Close)
	// The files arrive one by one; what could not be added is said
	// once they all have.
	waitFor(t, ea, "the inputs and what was not added", func() bool {
		return len(ea.edit.Inputs()) == 2 && strings.Contains(topText(ea.win), "gone.png")
	})
	onUI(ea, func() {
		if ea.CurrentTab() != TabEdit {
			t.Errorf("opened on tab %d, want Edit", ea.CurrentTab())
		}
		if in := ea.edit.Inputs(); in[0].Image.Name != "b.png" || in[1].Image.Name != "a.png" {
			t.Errorf("inputs %s, %s; want b.png, a.png", in[0].Image.Name, in[1].Image.Name)
		}
		if msg := topText(ea.win); !strings.Contains(msg, "gone.png") {
			t.Errorf("the dialog %q does not name the missing file", msg)
		}
	})
}

// A second start on the same gallery hands its files over the socket;
// the window shows Edit with them as inputs, after any it had.
func TestASecondStartsFilesJoinEdit(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	data := filepath.Join(dir, "data")
	t.Setenv("EASEL_HOME", data)
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)))
	a := filepath.Join(dir, "a.png")
	os.WriteFile(a, buf.Bytes(), 0o600)
	srv, handed, err := instance.Claim(data, instance.Message{})
	if err != nil || handed {
		t.Fatalf("claim: %v %v", handed, err)
	}
	t.Cleanup(srv.Close)
	o := Options{Demo: true, ConfigPath: filepath.Join(dir, "profiles.json"), Keys: secrets.New(secretstest.NewMemory(), 0),
		Getenv: func(string) string { return "" }, Instance: srv}
	ea := newApp(t, test.NewTempApp(t), o)
	t.Cleanup(ea.win.Close)
	onUI(ea, func() { ea.SelectTab(TabGallery) })
	if _, handed, err := instance.Claim(data, instance.Message{Files: []string{a}}); err != nil || !handed {
		t.Fatalf("the second start did not hand over: %v", err)
	}
	waitFor(t, ea, "the file in Edit", func() bool { return len(ea.edit.Inputs()) == 1 })
	onUI(ea, func() {
		if ea.CurrentTab() != TabEdit || ea.edit.Inputs()[0].Image.Name != "a.png" {
			t.Errorf("tab %d, inputs %v", ea.CurrentTab(), ea.edit.Inputs())
		}
	})
}

// A folder adds its images by name and nothing else; Edit takes at most
// 16 images, and the rest are named in a dialog, not dropped in silence.
func TestAFolderAddsItsImagesUpToTheLimit(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)))
	folder := filepath.Join(dir, "refs")
	os.Mkdir(folder, 0o700)
	for _, name := range []string{"b.png", "a.png", "notes.txt"} {
		os.WriteFile(filepath.Join(folder, name), buf.Bytes(), 0o600)
	}
	var many []string
	for i := range 18 {
		p := filepath.Join(dir, fmt.Sprintf("shot-%02d.png", i))
		os.WriteFile(p, buf.Bytes(), 0o600)
		many = append(many, p)
	}
	t.Setenv("EASEL_HOME", filepath.Join(dir, "data"))
	o := Options{Demo: true, ConfigPath: filepath.Join(dir, "profiles.json"), Keys: secrets.New(secretstest.NewMemory(), 0),
		Getenv: func(string) string { return "" }, Files: []string{folder}}
	ea := newApp(t, test.NewTempApp(t), o)
	t.Cleanup(ea.win.Close)
	waitFor(t, ea, "the folder's images", func() bool { return len(ea.edit.Inputs()) == 2 })
	onUI(ea, func() {
		if in := ea.edit.Inputs(); in[0].Image.Name != "a.png" || in[1].Image.Name != "b.png" {
			t.Errorf("inputs %s, %s; want a.png, b.png", in[0].Image.Name, in[1].Image.Name)
		}
		ea.openFiles(many)
	})
	waitFor(t, ea, "Edit full", func() bool { return len(ea.edit.Inputs()) == 16 })
	waitFor(t, ea, "the dialog", func() bool { return strings.Contains(topText(ea.win), "at most 16 images") })
	if msg := topText(ea.win); !strings.Contains(msg, "4 were not added") || !strings.Contains(msg, "shot-17.png") {
		t.Errorf("the dialog does not name what was left out: %q", msg)
	}
	// #57: the files are fine, so it is a notice, not an Error dialog
	if msg := topText(ea.win); !strings.Contains(msg, "Not all the images were added") || strings.Contains(msg, "Error") {
		t.Errorf("the limit is said as an error: %q", msg)
	}
}

// "Edit this" makes a gallery item Edit's only image: the references
// left from the last edit are one Undo away, never sent with it (issue
// 40, item 4).
func TestEditThisStartsFromThatPictureAlone(t *testing.T) {
	dir := galleryWith(t, 2)
	ea := appOn(t, dir)
	items, _ := ea.lib.List(context.Background(), library.Query{})
	actions := ea.actions
	actions.SendToEdit(items[0])
	waitFor(t, ea, "the first input", func() bool { return len(ea.edit.Inputs()) == 1 })
	actions.EditThis(items[1])
	waitFor(t, ea, "the picture alone", func() bool {
		in := ea.edit.Inputs()
		return len(in) == 1 && in[0].Item == items[1].ID
	})
	onUI(ea, func() {
		if ea.CurrentTab() != TabEdit || !strings.Contains(ea.edit.StatusText(), "Undo") {
			t.Errorf("tab %d, status %q", ea.CurrentTab(), ea.edit.StatusText())
		}
		if !ea.edit.Undo() {
			t.Fatal("nothing to undo")
		}
		if in := ea.edit.Inputs(); len(in) != 1 || in[0].Item != items[0].ID {
			t.Errorf("undo brought back %v", in)
		}
	})
}

// A picture imported from a file keeps the file's name: the Gallery's
// details say where it came from, and in Edit it is called by it, not
// "easel".
func TestAnImportedPictureIsCalledByItsFile(t *testing.T) {
	ea := appOn(t, filepath.Join(t.TempDir(), "data"))
	path := filepath.Join(t.TempDir(), "Logo final.png")
	if err := os.WriteFile(path, fixture.SolidPNG(t, 24, 16, color.NRGBA{B: 200, A: 255}), 0o600); err != nil {
		t.Fatal(err)
	}
	onUI(ea, func() { ea.SelectTab(TabGallery); ea.gallery.Import([]string{path}) }) // as File ▸ Import… does
	var it library.Item
	waitFor(t, ea, "the import", func() bool {
		items, _ := ea.lib.List(context.Background(), library.Query{Kinds: []string{"imported"}})
		if len(items) == 1 {
			it = items[0]
		}
		return len(items) == 1
	})
	if it.SourceName != "Logo final.png" {
		t.Errorf("kept as %q", it.SourceName)
	}
	ea.actions.SendToEdit(it)
	waitFor(t, ea, "the picture in Edit", func() bool { return len(ea.edit.Inputs()) == 1 })
	onUI(ea, func() {
		if name, want := ea.edit.Inputs()[0].Image.Name, fmt.Sprintf("logo-final-%d.png", it.ID); name != want {
			t.Errorf("Edit calls it %q, want %q", name, want)
		}
	})
	onUI(ea, func() { ea.gallery.Open(it) })
	waitFor(t, ea, "the details", func() bool { return strings.Contains(ea.gallery.DetailsText(), "imported from “Logo final.png”") })
}
