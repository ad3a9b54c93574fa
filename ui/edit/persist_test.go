package edit

import (
	"image"
	"path/filepath"
	"testing"

	"easel/internal/editsession"
	"easel/internal/markup"
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
