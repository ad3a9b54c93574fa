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
	"fyne.io/fyne/v2/widget"

	"easel/internal/library"
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
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "orig.png")
	if err := os.WriteFile(src, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "a-lighthouse-7.jpg")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	h.UI(func() { ExportTo(h, f, out, src, "png", "jpeg", 90, func(_ string, err error) { done <- err }) })
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
