package dialogs

import (
	"bytes"
	"image"
	_ "image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"easel/internal/library"
	"easel/internal/testsupport/fixture"
	"easel/ui/room/roomtest"
)

// An export is named from its prompt's first words and its id, so a
// folder of exports reads as what they show.
func TestExportNamesComeFromThePrompt(t *testing.T) {
	for _, c := range []struct {
		prompt, format, want string
	}{
		{"A lighthouse on a cliff at dusk, poster style", "jpeg", "a-lighthouse-on-a-cliff-42.jpg"},
		{"Étude n°2: café", "png", "étude-n-2-café-42.png"},
		{"", "webp", "easel-42.webp"},
		{"!!!", "png", "easel-42.png"},
	} {
		if got := ExportName(library.Item{ID: 42, Prompt: c.prompt}, c.format); got != c.want {
			t.Errorf("%q as %s: %q, want %q", c.prompt, c.format, got, c.want)
		}
	}
}

// A finished export says where it wrote, and the file holds the image in
// the format asked for.
func TestAFinishedExportSaysWhereItWrote(t *testing.T) {
	h := roomtest.New(t)
	buf := fixture.PNG(t, image.NewGray(image.Rect(0, 0, 8, 8)))
	src := filepath.Join(t.TempDir(), "orig.png")
	if err := os.WriteFile(src, buf, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "a-lighthouse-7.jpg")
	done := make(chan error, 1)
	h.UI(func() { ExportTo(h, out, src, "png", "jpeg", 90, func(_ string, err error) { done <- err }) })
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	h.UI(func() {
		top := h.Window().Canvas().Overlays().Top()
		if top == nil || !strings.Contains(textOf(top), out) {
			t.Errorf("the export does not say where it wrote")
		}
	})
	data, _ := os.ReadFile(out)
	if _, format, err := image.DecodeConfig(bytes.NewReader(data)); err != nil || format != "jpeg" {
		t.Errorf("the file holds %s (%v)", format, err)
	}
}

// textOf is every label's text in o.
func textOf(o fyne.CanvasObject) string {
	var sb strings.Builder
	roomtest.Walk(o, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			sb.WriteString(l.Text + "\n")
		}
	})
	return sb.String()
}

// tapButton taps the button labelled text in the window's top overlay.
func tapButton(t *testing.T, h *roomtest.Host, text string) {
	t.Helper()
	h.UI(func() {
		top := h.Window().Canvas().Overlays().Top()
		var found *widget.Button
		if top != nil {
			roomtest.Walk(top, func(o fyne.CanvasObject) {
				if b, ok := o.(*widget.Button); ok && b.Text == text {
					found = b
				}
			})
		}
		if found == nil {
			t.Fatalf("no %q button on top", text)
		}
		found.OnTapped()
	})
}

// topText is every label's text in the window's top overlay.
func topText(h *roomtest.Host) string {
	var s string
	h.UI(func() {
		if top := h.Window().Canvas().Overlays().Top(); top != nil {
			s = textOf(top)
		}
	})
	return s
}

// A confirmed overwrite whose export then fails leaves the old file as it
// was: the image is encoded and written beside the target first. (The
// file used to be opened, and so emptied, before the encode.)
func TestAFailedExportLeavesTheOldFileWhole(t *testing.T) {
	h := roomtest.New(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "orig.png")
	os.WriteFile(src, []byte("not a png at all"), 0o600)
	out := filepath.Join(dir, "poster.jpg")
	os.WriteFile(out, []byte("last week's poster"), 0o644)
	done := make(chan error, 1)
	h.UI(func() { ExportTo(h, out, src, "png", "jpeg", 90, func(_ string, err error) { done <- err }) })
	if !strings.Contains(topText(h), "already exists") {
		t.Fatalf("no confirmation before replacing: %q", topText(h))
	}
	tapButton(t, h, "Replace")
	if err := <-done; err == nil {
		t.Fatal("exporting a broken original succeeded")
	}
	if got, _ := os.ReadFile(out); string(got) != "last week's poster" {
		t.Errorf("the old file now holds %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files left in the folder: %v", entries)
	}
}

// A link at the chosen name is replaced itself, after a confirmation that
// says where it points; the file it points to, outside the folder, is not
// touched. A link that points nowhere is confirmed too.
func TestExportNeverWritesThroughALink(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		h := roomtest.New(t)
		dir, elsewhere := t.TempDir(), t.TempDir()
		var buf bytes.Buffer
		png.Encode(&buf, image.NewGray(image.Rect(0, 0, 4, 4)))
		src := filepath.Join(dir, "orig.png")
		os.WriteFile(src, buf.Bytes(), 0o600)
		victim := filepath.Join(elsewhere, "precious.txt")
		if !dangling {
			os.WriteFile(victim, []byte("keep me"), 0o600)
		}
		out := filepath.Join(dir, "export.png")
		os.Symlink(victim, out)
		done := make(chan error, 1)
		h.UI(func() { ExportTo(h, out, src, "png", "png", 90, func(_ string, err error) { done <- err }) })
		if msg := topText(h); !strings.Contains(msg, "is a link to "+victim) {
			t.Fatalf("dangling %v: the confirmation does not name the link's target: %q", dangling, msg)
		}
		tapButton(t, h, "Replace")
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		st, err := os.Lstat(out)
		if err != nil || st.Mode()&os.ModeSymlink != 0 {
			t.Errorf("dangling %v: the link is still there (%v)", dangling, err)
		}
		got, err := os.ReadFile(victim)
		if dangling && err == nil || !dangling && string(got) != "keep me" {
			t.Errorf("dangling %v: the link's target was written: %q, %v", dangling, got, err)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("dangling %v: the export holds %d bytes", dangling, len(got))
		}
	}
}

// Export opens on the folder set in Settings ▸ Preferences when there is
// one, else on the last folder exported to.
func TestExportOpensOnThePreferredFolder(t *testing.T) {
	test.NewTempApp(t)
	prefs := fyne.CurrentApp().Preferences()
	last, chosen := t.TempDir(), t.TempDir()
	prefs.SetString(folderPref, last)
	if got := defaultFolder(); got != last {
		t.Errorf("without a preference Export opens on %s, want the last folder %s", got, last)
	}
	prefs.SetString(exportDefaultPref, chosen)
	if got := defaultFolder(); got != chosen {
		t.Errorf("with a preference Export opens on %s, want %s", got, chosen)
	}
}

// Choose selects the images at places, in that order (for tests).
func (p *ImagePicker) Choose(places ...int) {
	for _, i := range places {
		p.grid.Selection().Toggle(i)
	}
	p.grid.Refresh()
	p.selectionChanged()
}

// Open shows dir (for tests).
func (p *ImagePicker) Open(dir string) { p.open(dir) }

// Confirm presses Add (for tests).
func (p *ImagePicker) Confirm() { p.finish() }
