package edit

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"easel/ui/room/roomtest"
)

func TestOrdinals(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 16: "16th", 21: "21st", 22: "22nd"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// The strip names each input by its place (the prompt says "the
// first"), with its size, format and file size, and says which one the
// mask goes on.
func TestTheStripNamesEachInputByItsPlace(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	var paths []string
	for _, c := range []struct {
		name string
		w, h int
	}{{"room.png", 120, 80}, {"sofa.png", 30, 60}} {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewGray(image.Rect(0, 0, c.w, c.h)))
		p := filepath.Join(dir, c.name)
		os.WriteFile(p, buf.Bytes(), 0o600)
		paths = append(paths, p)
	}
	h.UI(func() { r.AddFiles(paths) })
	h.Until("two inputs", func() bool { return len(r.Inputs()) == 2 })
	var text string
	h.UI(func() {
		roomtest.Walk(r.refList, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok {
				text += l.Text + "\n"
			}
		})
	})
	for _, want := range []string{"1st · room.png", "120×80 · PNG", "The mask is painted on this one.", "2nd · sofa.png", "30×60 · PNG"} {
		if !strings.Contains(text, want) {
			t.Errorf("the strip does not say %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "mask is painted") != 1 {
		t.Errorf("the mask note is not on the first alone:\n%s", text)
	}
	if r.Inputs()[0].Thumb == nil {
		t.Error("no thumbnail for the strip")
	}
}
