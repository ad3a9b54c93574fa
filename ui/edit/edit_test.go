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

	"easel/internal/api"
	"easel/internal/jobs"
	"easel/internal/mask"
	"easel/internal/testsupport/fixture"
	"easel/ui/room/roomtest"
	"easel/ui/widgets/reorder"
)

// The strip names each input by its place (the prompt says "the
// first"), with its size, format and file size, and says which one the
// mask goes on.
func TestTheStripNamesEachInputByItsPlace(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	paths := roomAndSofa(t)
	h.UI(func() { r.AddFiles(paths) })
	h.Until("two inputs", func() bool { return len(r.Inputs()) == 2 })
	var text string
	h.UI(func() {
		roomtest.Walk(r.strip.list, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok {
				text += l.Text + "\n"
			}
		})
	})
	for _, want := range []string{"1st · room.png", "120×80 · PNG", "mask canvas · 120×80", "2nd · sofa.png", "30×60 · PNG"} {
		if !strings.Contains(text, want) {
			t.Errorf("the strip does not say %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "mask canvas") != 1 {
		t.Errorf("the mask note is not on the first alone:\n%s", text)
	}
	if r.Inputs()[0].Thumb == nil {
		t.Error("no thumbnail for the strip")
	}
}

// The first input shows in the mask painter; what is painted there goes
// with the edit as a mask the size of that image, transparent where it
// was painted. Nothing painted sends no mask.
func TestThePaintedMaskGoesWithTheEdit(t *testing.T) {
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
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 96, 64)))
	p := filepath.Join(t.TempDir(), "room.png")
	os.WriteFile(p, buf.Bytes(), 0o600)
	h.UI(func() { r.AddFiles([]string{p}) })
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	h.UI(func() {
		r.Prompt().SetText("no mask")
		r.PrimaryAction()
	})
	h.Until("the first edit", func() bool { return len(sent) == 1 })
	h.UI(func() {
		r.mask.painter.Do(func(m *mask.Mask) { m.Rect(image.Rect(0, 0, 48, 64), false) })
		r.Prompt().SetText("left half")
		r.PrimaryAction()
	})
	h.Until("the second edit", func() bool { return len(sent) == 2 })
	if sent[0].Edit.Mask != nil {
		t.Error("a mask was sent though nothing was painted")
	}
	m := sent[1].Edit.Mask
	if m == nil {
		t.Fatal("the painted mask was not sent")
	}
	img, err := png.Decode(bytes.NewReader(m.Data))
	if err != nil || img.Bounds().Dx() != 96 || img.Bounds().Dy() != 64 {
		t.Fatalf("the mask is %v (%v), want 96x64", img.Bounds(), err)
	}
	if _, _, _, a := img.At(10, 10).RGBA(); a != 0 {
		t.Error("the painted half is not transparent")
	}
	if _, _, _, a := img.At(80, 10).RGBA(); a != 0xffff {
		t.Error("the kept half is not opaque")
	}
	// Keep the unmasked area is on by default once a mask is painted,
	// and the size matches the first image's shape.
	if sent[0].Keep != nil || sent[1].Keep == nil || sent[1].Keep.Feather != 8 {
		t.Errorf("keep: %+v without a mask, %+v with one; want nil, then feather 8", sent[0].Keep, sent[1].Keep)
	}
	if sz := sent[1].Edit.Size; sz != "1536x1024" {
		t.Errorf("matched the 96x64 image with %s, want the standard 1536x1024", sz)
	}
	// A size of another shape: the option says, before sending, that it
	// cannot apply.
	var note string
	h.UI(func() {
		r.Options().SetOptions(api.ImageOptions{Model: "gpt-image-1", Size: "1024x1536"})
		note = r.keep.note.Text
	})
	if !strings.Contains(note, "shapes differ") || !strings.Contains(note, "Match the first image") {
		t.Errorf("for a portrait size on a landscape image the note reads %q", note)
	}
}

// A mask belongs to the image it was painted on: moving another image
// first shows that one with its own mask, and moving the first back
// brings its mask back, undo history and all.
func TestAMaskStaysWithItsImage(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"room.png", "sofa.png"} {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewGray(image.Rect(0, 0, 40, 40)))
		p := filepath.Join(dir, name)
		os.WriteFile(p, buf.Bytes(), 0o600)
		paths = append(paths, p)
	}
	h.UI(func() { r.AddFiles(paths) })
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil && len(r.Inputs()) == 2 })
	h.UI(func() { r.mask.painter.Do(func(m *mask.Mask) { m.Rect(image.Rect(0, 0, 10, 10), false) }) })
	h.UI(func() { r.strip.moveTo(0, 1) })
	h.Until("sofa in the painter", func() bool {
		return r.mask.showing != nil && r.mask.showing.Image.Name == "sofa.png" && r.mask.painter.Mask() != nil
	})
	h.Until("sofa's own mask", func() bool { return r.mask.painter.Mask().Painted() == 0 })
	h.UI(func() { r.strip.moveTo(0, 1) })
	h.Until("room's mask back", func() bool { return r.mask.painter.Mask() != nil && r.mask.painter.Mask().At(5, 5) == 255 })
	h.UI(func() {
		if !r.mask.painter.Mask().CanUndo() {
			t.Error("the mask came back without its undo history")
		}
	})
}

// An imported mask of the first image's size replaces the painted one;
// one of another size is refused with both sizes.
func TestAMaskCanBeImported(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 40, 20)))
	p := filepath.Join(t.TempDir(), "room.png")
	os.WriteFile(p, buf.Bytes(), 0o600)
	h.UI(func() { r.AddFiles([]string{p}) })
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	bw := image.NewGray(image.Rect(0, 0, 40, 20))
	for x := 20; x < 40; x++ {
		for y := 0; y < 20; y++ {
			bw.Pix[bw.PixOffset(x, y)] = 255
		}
	}
	h.UI(func() {
		if err := r.mask.useMask(r.mask.showing, image.NewGray(image.Rect(0, 0, 10, 10)), "small.png"); err == nil || !strings.Contains(err.Error(), "10x10 but the first image is 40x20") {
			t.Errorf("a mask of another size: %v", err)
		}
		if err := r.mask.useMask(r.mask.showing, bw, "half.png"); err != nil {
			t.Fatal(err)
		}
		if m := r.mask.painter.Mask(); m.At(30, 10) != 255 || m.At(5, 10) != 0 {
			t.Errorf("the imported mask: %d where white, %d where black", m.At(30, 10), m.At(5, 10))
		}
	})
}

// Files that cannot be used are named with the reason, and the good ones
// are added all the same: an empty folder, a file that cannot be read,
// one that is gone, one damaged inside.
func TestBadFilesAreNamedAndTheRestAdded(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 24, 16)))
	good := filepath.Join(dir, "good.png")
	os.WriteFile(good, buf.Bytes(), 0o600)
	empty := filepath.Join(dir, "references")
	os.Mkdir(empty, 0o700)
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("no images here"), 0o600)
	damaged := buf.Bytes()
	damaged = append(append([]byte{}, damaged[:40]...), bytes.Repeat([]byte{0xa5}, len(damaged)-40)...)
	os.WriteFile(filepath.Join(dir, "damaged.png"), damaged, 0o600)
	paths := []string{good, empty, filepath.Join(dir, "gone.png"), filepath.Join(dir, "damaged.png")}
	want := []string{"references holds no PNG, JPEG, WebP, GIF, BMP or TIFF images", "gone.png", "damaged.png"}
	if os.Geteuid() != 0 { // root reads any file
		locked := filepath.Join(dir, "locked.png")
		os.WriteFile(locked, buf.Bytes(), 0o000)
		paths = append(paths, locked)
		want = append(want, "locked.png")
	}
	h.UI(func() { r.AddFiles(paths) })
	h.Until("the good file", func() bool { return len(r.Inputs()) == 1 })
	var said string
	h.Until("the reasons", func() bool {
		if top := h.Window().Canvas().Overlays().Top(); top != nil {
			said = ""
			roomtest.Walk(top, func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok {
					said += l.Text + " "
				}
				if l, ok := o.(*widget.RichText); ok {
					said += l.String() + " "
				}
			})
		}
		return said != ""
	})
	for _, w := range want {
		if !strings.Contains(said, w) {
			t.Errorf("the dialog %q does not name %q", said, w)
		}
	}
	if r.Inputs()[0].Image.Name != "good.png" {
		t.Errorf("added %q", r.Inputs()[0].Image.Name)
	}
}

// grips are the strip's reorder grips, in order.
func grips(r *Room) []*reorder.Handle {
	var out []*reorder.Handle
	for _, o := range r.strip.list.Objects {
		roomtest.Walk(o, func(c fyne.CanvasObject) {
			if g, ok := c.(*reorder.Handle); ok {
				out = append(out, g)
			}
		})
	}
	return out
}

// An input moves by its grip: dragged along the strip by tiles, or by Up
// and Down (Left and Right) once it
// has the keys, which it keeps after the move; Delete removes it. The
// mask goes with its image.
func TestTheStripReordersByGripAndKeys(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.png", "b.png", "c.png", "d.png"} {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewGray(image.Rect(0, 0, 20, 20)))
		p := filepath.Join(dir, name)
		os.WriteFile(p, buf.Bytes(), 0o600)
		paths = append(paths, p)
	}
	h.UI(func() { r.AddFiles(paths) })
	h.Until("four inputs", func() bool { return len(r.Inputs()) == 4 })
	order := func() string {
		var s []string
		for _, in := range r.Inputs() {
			s = append(s, strings.TrimSuffix(in.Image.Name, ".png"))
		}
		return strings.Join(s, "")
	}
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	h.UI(func() {
		r.mask.painter.Do(func(m *mask.Mask) { m.Fill() }) // a's mask
		g := grips(r)[0]
		rowH := g.RowHeight()
		if rowH <= 0 {
			t.Fatal("rows have no height")
		}
		for range 4 {
			g.Dragged(&fyne.DragEvent{Dragged: fyne.NewDelta(rowH/2, 0)})
		}
		g.DragEnd()
	})
	h.UI(func() {
		if order() != "bcad" {
			t.Errorf("after dragging a's grip two tiles right: %s, want bcad", order())
		}
		focused := h.Window().Canvas().Focused()
		g := grips(r)
		if focused != g[2] {
			t.Fatal("the moved input's grip lost the keys")
		}
		g[2].TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	})
	h.UI(func() {
		// The next key goes to the grip that has the keys now: a's.
		if order() != "bacd" {
			t.Errorf("after Up: %s, want bacd", order())
		}
		h.Window().Canvas().Focused().(*reorder.Handle).TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	})
	h.Until("a first again, in the painter", func() bool {
		return order() == "abcd" && r.mask.painter.Mask() != nil && r.mask.painter.Mask() == r.mask.masks[key(&r.Inputs()[0])]
	})
	h.UI(func() {
		if p := r.mask.painter.Mask().Painted(); p != 1 {
			t.Errorf("a's mask did not come back with it: %v painted", p)
		}
		grips(r)[3].TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
		if order() != "abc" {
			t.Errorf("Delete on d's grip: %s", order())
		}
	})
}

// Expand canvas widens a square first input to 3:2 with its new area
// masked; the edit goes at the canvas's shape, with the unmasked area to
// be put back.
func TestExpandCanvasMasksTheNewArea(t *testing.T) {
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
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 256, 256)))
	p := filepath.Join(t.TempDir(), "square.png")
	os.WriteFile(p, buf.Bytes(), 0o600)
	h.UI(func() { r.AddFiles([]string{p}) })
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	h.UI(r.ExpandCanvas)
	expand, said := h.Overlay("Expand")
	if !strings.Contains(said, "Canvas 384×256, sent at 1536×1024") {
		t.Errorf("the dialog says %q", said)
	}
	h.UI(expand.OnTapped)
	h.Until("the canvas", func() bool { return len(r.Inputs()) == 1 && r.Inputs()[0].Width == 384 })
	h.Until("its mask", func() bool { m := r.mask.painter.Mask(); return m != nil && m.Painted() > 0.3 })
	h.UI(func() {
		if got := r.mask.painter.Mask().Painted(); got < 0.33 || got > 0.34 {
			t.Errorf("%.3f of the canvas is masked, want a third", got)
		}
		r.Prompt().SetText("more room")
		r.PrimaryAction()
	})
	h.Until("the edit", func() bool { return len(sent) == 1 })
	e := sent[0]
	if e.Edit.Mask == nil || e.Keep == nil || e.Edit.Size != "1536x1024" || !strings.HasSuffix(e.Edit.Images[0].Name, "-expanded.png") {
		t.Errorf("sent %s at %s, mask %v, keep %v", e.Edit.Images[0].Name, e.Edit.Size, e.Edit.Mask != nil, e.Keep)
	}
}

// A first image of a shape the model cannot make (2:1 on gpt-image-1)
// goes padded to the shape of the size it matches, its mask's padding
// protected, and the kept result is cropped back to the picture.
func TestAnOddShapeIsPaddedAndCroppedBack(t *testing.T) {
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
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 64, 32)))
	p := filepath.Join(t.TempDir(), "wide.png")
	os.WriteFile(p, buf.Bytes(), 0o600)
	h.UI(func() { r.AddFiles([]string{p}) })
	h.Until("the painter", func() bool { return r.mask.painter.Mask() != nil })
	var note string
	h.UI(func() {
		r.Options().SetOptions(api.ImageOptions{Model: "gpt-image-1"})
		r.mask.painter.Do(func(m *mask.Mask) { m.Rect(image.Rect(0, 0, 32, 32), false) })
		note = r.keep.note.Text
		r.Prompt().SetText("left half")
		r.PrimaryAction()
	})
	if !strings.Contains(note, "padded") || strings.Contains(note, "cannot be put back") {
		t.Errorf("the note reads %q", note)
	}
	h.Until("the edit", func() bool { return len(sent) == 1 })
	e := sent[0]
	img, err := png.Decode(bytes.NewReader(e.Edit.Mask.Data))
	if err != nil || img.Bounds().Size() != image.Pt(64, 43) {
		t.Fatalf("the mask is %v (%v), want 64x43", img.Bounds(), err)
	}
	if e.Keep == nil || e.Keep.Frame != image.Rect(0, 5, 64, 37) || e.Edit.Size != "1536x1024" {
		t.Errorf("keep %+v, size %s", e.Keep, e.Edit.Size)
	}
	if _, _, _, a := img.At(10, 1).RGBA(); a != 0xffff {
		t.Error("the padding is not protected")
	}
	if _, _, _, a := img.At(10, 20).RGBA(); a != 0 {
		t.Error("the painted area moved")
	}
}

// Sending the same image to Edit twice adds it once and says where it
// already is.
func TestTheSameImageIsNotAddedTwice(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 20, 20)))
	in := NewInput("sky.png", "image/png", buf.Bytes(), 7, nil)
	h.UI(func() {
		r.Add(in)
		r.Add(in)
		if len(r.Inputs()) != 1 {
			t.Errorf("%d inputs after adding the same image twice", len(r.Inputs()))
		}
		if !strings.Contains(r.StatusText(), "sky.png is already the 1st input") {
			t.Errorf("the status says %q", r.StatusText())
		}
	})
}

// Several inputs added at once show from their first: the strip scrolls
// to the first new tile, not past it to the last.
func TestTheStripShowsTheFirstOfSeveralAdded(t *testing.T) {
	h := roomtest.New(t)
	r := New(h)
	h.Show(r.Build)
	dir := t.TempDir()
	add := func(names ...string) {
		var paths []string
		for _, name := range names {
			var buf bytes.Buffer
			png.Encode(&buf, image.NewGray(image.Rect(0, 0, 20, 20)))
			p := filepath.Join(dir, name)
			os.WriteFile(p, buf.Bytes(), 0o600)
			paths = append(paths, p)
		}
		want := len(r.Inputs()) + len(names)
		h.UI(func() { r.AddFiles(paths) })
		h.Until("the inputs", func() bool { return len(r.Inputs()) == want })
	}
	add("a.png", "b.png")
	add("c.png", "d.png", "e.png", "f.png", "g.png", "h.png", "i.png", "j.png")
	h.UI(func() {
		if r.strip.list.MinSize().Width <= r.strip.scroll.Size().Width {
			t.Fatalf("the strip (%v) fits its %v view: the test needs it to scroll", r.strip.list.MinSize().Width, r.strip.scroll.Size().Width)
		}
		third := r.strip.list.Objects[2]
		x := third.Position().X - r.strip.scroll.Offset.X
		if x < 0 || x+third.Size().Width > r.strip.scroll.Size().Width {
			t.Errorf("the first tile added (the 3rd) is at %v in a %v view, scrolled %v: out of view", x, r.strip.scroll.Size().Width, r.strip.scroll.Offset.X)
		}
		if r.strip.scroll.Offset.X <= 0 {
			t.Error("the strip did not scroll to the new tiles")
		}
	})
}

// roomAndSofa writes two grey PNGs, room.png (120x80) and sofa.png
// (30x60), and returns their paths in that order.
func roomAndSofa(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, c := range []struct {
		name string
		w, h int
	}{{"room.png", 120, 80}, {"sofa.png", 30, 60}} {
		buf := fixture.PNG(t, image.NewGray(image.Rect(0, 0, c.w, c.h)))
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, buf, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}
