package edit

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"easel/internal/editsession"
	"easel/internal/markup"
	"easel/internal/roles"
	"easel/ui/room/roomtest"
)

// #57: Edit's work outlives the window. Two references, a mask painted on
// the first and a mark drawn on it are written beside the gallery as
// they change; an Edit opened afresh on that gallery (a restart) has
// them back, in order, the mask and the mark on the first.
func TestEditsWorkComesBackAfterARestart(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	paths := roomAndSofa(t)
	h.UI(func() { r.AddFiles(paths) })
	h.Until("two inputs, the first in the painter", func() bool { return len(r.Inputs()) == 2 && r.mask.painter.Mask() != nil })
	h.UI(func() {
		r.mask.painter.Mask().Rect(image.Rect(0, 0, 60, 80), false) // half of the room
		r.mask.painter.Marks.Set(markup.Marks{Items: []markup.Mark{{Kind: markup.Arrow, Points: [][2]float64{{10, 10}, {50, 40}}}}})
	})
	sessionDir := filepath.Join(h.Library().Root(), "edit-session")
	h.Until("the session written with the mask", func() bool {
		s, err := editsession.Load(sessionDir)
		return err == nil && len(s.Inputs) == 2 && s.Inputs[0].Mask != nil && s.Marks != nil
	})

	again := New(h) // Edit opened afresh on the same gallery
	h.Show(again.Build)
	h.Until("the references back in order", func() bool {
		in := again.Inputs()
		return len(in) == 2 && in[0].Image.Path == paths[0] && in[1].Image.Path == paths[1]
	})
	h.Until("the mask and the mark back on the first", func() bool {
		m := again.mask.painter.Mask()
		return m != nil && m.Painted() > 0.49 && m.Painted() < 0.51 && len(again.mask.painter.Marks.All().Items) == 1
	})
}

// A setup saved and opened again: the references in order with their
// roles, the mask on the first, the marks, the prompt and the options
// replace what Edit held, and one Undo brings that back.
func TestASetupOpensInPlaceOfWhatEditHeld(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	paths := roomAndSofa(t)
	h.UI(func() { r.AddFiles(paths) })
	h.Until("two inputs, the first in the painter", func() bool { return len(r.Inputs()) == 2 && r.mask.painter.Mask() != nil })
	var encode func() ([]byte, error)
	h.UI(func() {
		r.mask.painter.Mask().Rect(image.Rect(0, 0, 60, 80), false)
		r.mask.painter.Marks.Set(markup.Marks{Items: []markup.Mark{{Kind: markup.Note, Points: [][2]float64{{10, 30}}, Text: "a lamp"}}})
		r.strip.inputs[1].Role = roles.Product
		r.Prompt().SetText("put the sofa in the room")
		encode = r.Setups().setup()
	})
	data, err := encode()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "living"+editsession.SetupExt)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	h.UI(func() {
		r.strip.remove(1)
		r.strip.remove(0)
		r.Prompt().SetText("something else")
	})
	h.UI(func() { r.AddFiles(paths[1:]) })
	h.Until("the sofa alone", func() bool { return len(r.Inputs()) == 1 })
	h.UI(func() { r.Setups().OpenFile(file) })
	h.Until("the setup opened", func() bool {
		in := r.Inputs()
		return len(in) == 2 && in[0].Image.Path == paths[0] && in[1].Role == roles.Product && r.Prompt().Text == "put the sofa in the room"
	})
	h.Until("its mask and note on the first", func() bool {
		m := r.mask.painter.Mask()
		marks := r.mask.painter.Marks.All()
		return m != nil && m.Painted() > 0.49 && m.Painted() < 0.51 && len(marks.Items) == 1 && marks.Items[0].Text == "a lamp"
	})
	h.UI(func() {
		if !strings.Contains(r.StatusText(), "living"+editsession.SetupExt) || !r.Undo() {
			t.Fatalf("the status line %q offers no Undo", r.StatusText())
		}
	})
	h.UI(func() {
		if in := r.Inputs(); len(in) != 1 || in[0].Image.Path != paths[1] || r.Prompt().Text != "something else" {
			t.Errorf("after Undo Edit holds %d inputs, the prompt %q", len(in), r.Prompt().Text)
		}
	})
}
