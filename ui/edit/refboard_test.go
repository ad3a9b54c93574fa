package edit

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/jobs"
	"easel/internal/roles"
	"easel/ui/room/roomtest"
)

// Sixteen references on the board: the 12th dragged to 2nd place is 2nd
// in the strip and in the edit sent; a role chosen on a card is said in
// the prompt and on the strip's tile.
func TestTheReferenceBoardOrdersAndNamesTheInputs(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	var sent []*jobs.Request
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Queued {
			req := e.Job.Request
			sent = append(sent, &req)
		}
	}
	dir := t.TempDir()
	var files []string
	for i := range 16 {
		img := image.NewNRGBA(image.Rect(0, 0, 40+i, 30))
		for j := 0; j < len(img.Pix); j += 4 {
			copy(img.Pix[j:], []byte{uint8(10 * i), 100, 50, 255})
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		p := filepath.Join(dir, fmt.Sprintf("ref-%02d.png", i+1))
		_ = os.WriteFile(p, buf.Bytes(), 0o600)
		files = append(files, p)
	}
	h.UI(func() { r.AddFiles(files) })
	h.Until("sixteen inputs", func() bool { return len(r.strip.inputs) == 16 })
	h.UI(func() { r.strip.board.open() })
	h.UI(func() {
		b := r.strip.board.board
		if b == nil || len(b.Cards()) != 16 {
			t.Fatal("the board does not show the sixteen inputs")
		}
		if !strings.Contains(b.Cards()[0].Note, "mask") || b.Cards()[1].Note != "" {
			t.Errorf("the first card's note %q, the second's %q", b.Cards()[0].Note, b.Cards()[1].Note)
		}
		b.OnMove(11, 1) // as a drag of the 12th onto the 2nd's left half reports (refboard's test)
	})
	h.UI(func() {
		b := r.strip.board.board
		if got := r.strip.inputs[1].Image.Name; got != "ref-12.png" {
			t.Errorf("the second input is %s", got)
		}
		if got := b.Cards()[1].Title; got != "2 · ref-12.png" {
			t.Errorf("the board's second card is %q", got)
		}
		b.OnRole(1, roleIndex(roles.Style))
	})
	h.UI(func() {
		if r.strip.inputs[1].Role != roles.Style || !strings.HasPrefix(r.strip.tiles[1].info.Text, "Style · ") {
			t.Errorf("the second input's role is %q, its tile says %q", r.strip.inputs[1].Role, r.strip.tiles[1].info.Text)
		}
		r.strip.board.dlg.Hide()
		r.Prompt().SetText("a collage")
		r.PrimaryAction()
	})
	h.Until("the edit", func() bool { return len(sent) == 1 })
	e := sent[0].Edit
	if len(e.Images) != 16 || e.Images[1].Name != "ref-12.png" || e.Images[11].Name != "ref-11.png" {
		t.Errorf("the edit sent %d images, the second %s, the twelfth %s", len(e.Images), e.Images[1].Name, e.Images[11].Name)
	}
	if !strings.Contains(e.Prompt, "image 2 is the style to follow") {
		t.Errorf("the prompt sent: %q", e.Prompt)
	}
}
