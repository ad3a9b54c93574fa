package edit

import (
	"context"
	"image"
	"image/color"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/export"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/ui/room/roomtest"
)

// #55 in Edit: a gallery picture made the first image and edited is a
// turn of its thread; the thread shows beside the canvas with each
// turn's place and what it changed outside the marks; "Go on from here"
// hands that turn's picture to the window; an area painted over turn 2
// is taken back from turn 1 exactly, as the thread's next turn; where a
// turn changed is drawn.
func TestTheThreadShowsBesideTheCanvasAndTakesAnAreaBack(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{Drift: 0.25})
	r := New(h)
	h.Show(r.Build)
	ctx := context.Background()
	lib := h.Library()
	start := addPicture(t, lib, color.NRGBA{40, 120, 200, 255})

	fromItem := func(id int64) {
		t.Helper()
		it, err := lib.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(lib.Path(it))
		if err != nil {
			t.Fatal(err)
		}
		in := NewInput("picture.png", "image/png", data, id, nil)
		h.UI(func() { r.StartFrom(in) })
		h.Until("the picture in the painter", func() bool { return r.thread.item == id && r.mask.painter.Mask() != nil })
	}
	send := func(prompt string) {
		t.Helper()
		h.UI(func() {
			r.mask.painter.Mask().Rect(image.Rect(32, 0, 64, 64), false) // the right half may change
			r.prompt.SetText(prompt)
			r.PrimaryAction()
		})
	}
	fromItem(start)
	send("warmer light")
	h.Until("two turns in the thread", func() bool { return len(r.thread.turns) == 2 })
	var second threadTurn
	h.UI(func() { second = r.thread.turns[1] })
	var text string
	h.UI(func() { text = panelText(r) })
	for _, want := range []string{"Turn 1", "Turn 2 (after 1)", "% changed outside the marks", "warmer light", "Go on", "% changed outside the marks"} {
		if !strings.Contains(text, want) {
			t.Errorf("the thread does not say %q:\n%s", want, text)
		}
	}
	// The thread asks no more width than the panel's form: its words
	// wrap (a turn's figure, a link on one line, widened the panel to
	// 290 units and was cut at its edge below that).
	h.UI(func() {
		if w := r.thread.box.MinSize().Width; w > 240 {
			t.Errorf("the thread needs %.0f units of width, more than the panel's 240", w)
		}
	})
	if second.Drift == nil || *second.Drift < 0.2 || *second.Drift > 0.3 {
		t.Errorf("turn 2's drift: %v, want the demo's quarter of the protected rows", second.Drift)
	}
	h.UI(func() { tapButton(t, r.thread.box, "Compare") }) // turn 2 beside turn 1, in Edit
	h.Until("the two turns compared", func() bool { return h.Window().Canvas().Overlays().Top() != nil })
	h.UI(func() {
		h.Window().Canvas().Overlays().Top().Hide()
		h.Window().Canvas().Overlays().Remove(h.Window().Canvas().Overlays().Top())
	})
	h.UI(func() { tapButton(t, r.thread.box, "Go on") }) // turn 2's: turn 1 is in Edit
	h.Until("turn 2 the first image", func() bool { return r.Inputs()[0].Item == second.Item && r.thread.item == second.Item })

	// Turn 2 in Edit: going back to turn 1 is a button away; then turn
	// 2 again, its left half painted and taken back from turn 1.
	h.Until("turn 2 marked as in Edit", func() bool { return strings.Contains(panelText(r), "Turn 2 (after 1) · in Edit now") })
	h.UI(func() { tapButton(t, r.thread.box, "Go on") })
	h.Until("back at turn 1", func() bool { return r.Inputs()[0].Item == start })
	fromItem(second.Item)
	h.UI(func() {
		r.mask.painter.Mask().Rect(image.Rect(0, 0, 24, 64), false)
		r.thread.restore(r.thread.turns[0])
	})
	h.Until("the restored turn", func() bool {
		turns, _ := lib.Lineage().Thread(ctx, start)
		return len(turns) == 3
	})
	turns, _ := lib.Lineage().Thread(ctx, start)
	restored := turns[2]
	if restored.Parent != second.Item || restored.Way != library.WayRestored {
		t.Errorf("the restored turn: %+v", restored)
	}
	it, _ := lib.Get(ctx, restored.Item)
	img, err := imageio.DecodeFile(lib.Path(it))
	if err != nil {
		t.Fatal(err)
	}
	if got := color.NRGBAModel.Convert(img.At(4, 40)).(color.NRGBA); got != (color.NRGBA{40, 120, 200, 255}) {
		t.Errorf("inside the painted area: %v, want turn 1's pixel", got)
	}
	beforeTurn := imagePixel(t, lib, second.Item, 50, 40)
	if got := color.NRGBAModel.Convert(img.At(50, 40)).(color.NRGBA); got != beforeTurn {
		t.Errorf("outside the painted area: %v, want turn 2's %v", got, beforeTurn)
	}
	h.Until("the restored picture in Edit", func() bool { return r.Inputs()[0].Item == restored.Item })

	var turn2 library.Turn
	h.UI(func() { turn2 = r.thread.turns[1].Turn }) // the panel's rows are the UI goroutine's
	heat, err := export.TurnChanges(ctx, lib, turn2)
	if err != nil || heat.Bounds().Dx() != 64 {
		t.Fatalf("where turn 2 changed: %v", err)
	}
	if c := heat.NRGBAAt(10, 2); c.R < 200 || c.G > 80 {
		t.Errorf("a protected pixel the demo strayed on is not red: %v", c)
	}
}

func addPicture(t *testing.T, lib *library.Library, c color.NRGBA) int64 {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{c.R, c.G, c.B, c.A})
	}
	data, err := imageio.EncodePNG(img)
	if err != nil {
		t.Fatal(err)
	}
	id, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: data, Format: "png", Width: 64, Height: 64}, Kind: "generate", Prompt: "a lighthouse"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func imagePixel(t *testing.T, lib *library.Library, id int64, x, y int) color.NRGBA {
	t.Helper()
	it, _ := lib.Get(context.Background(), id)
	img, err := imageio.DecodeFile(lib.Path(it))
	if err != nil {
		t.Fatal(err)
	}
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

// panelText is every label and button of the thread panel, a line
// each; call it on the UI goroutine.
func panelText(r *Room) string {
	var text string
	roomtest.Walk(r.thread.box, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			text += w.Text + "\n"
		case *widget.Button:
			text += "[" + w.Text + "]\n"
		case *widget.Hyperlink:
			text += "<" + w.Text + ">\n"
		}
	})
	return text
}

// tapButton taps the first button of o whose text is text.
func tapButton(t *testing.T, o fyne.CanvasObject, text string) {
	t.Helper()
	var found *widget.Button
	roomtest.Walk(o, func(c fyne.CanvasObject) {
		if b, ok := c.(*widget.Button); ok && b.Text == text && found == nil {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	found.OnTapped()
}
