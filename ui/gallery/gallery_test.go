package gallery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/mask"
	"easel/internal/testsupport/fixture"
	"easel/ui/room/roomtest"
	"easel/ui/widgets/maskpaint"
	"easel/ui/widgets/zoomview"
)

// noActions is a gallery's other tabs, for a test of the gallery alone.
type noActions struct{}

func (noActions) Reuse(library.Item)        {}
func (noActions) SendToEdit(library.Item)   {}
func (noActions) SendToChat(library.Item)   {}
func (noActions) EditThis(library.Item)     {}
func (noActions) ExpandCanvas(library.Item) {}
func (noActions) MoreLikeThis(library.Item) {}
func (noActions) Export(library.Item)       {}
func (noActions) ExportMany([]library.Item) {}

func addImage(t *testing.T, lib *library.Library, prompt string, side int) int64 {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xff
	}
	img.SetNRGBA(0, 0, color.NRGBA{A: 0xff})
	buf := fixture.PNG(t, img)
	id, err := lib.Add(context.Background(), library.NewItem{Image: api.Image{Data: buf, Format: "png", Width: side, Height: side},
		Kind: "generate", Prompt: prompt, Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func newGallery(t *testing.T) (*Room, *roomtest.Host) {
	h := roomtest.New(t)
	g := New(h, noActions{})
	h.Show(g.Build)
	return g, h
}

// A finished job reloads the grid; the selection stays on the image the
// user chose, though the new image on top moves every index.
func TestANewImageKeepsTheSelectionOnItsItem(t *testing.T) {
	g, h := newGallery(t)
	older := addImage(t, h.Library(), "older", 32)
	chosen := addImage(t, h.Library(), "chosen", 32)
	h.UI(g.Reload)
	h.Until("two items", func() bool { return len(g.Items()) == 2 })
	h.UI(func() { g.Grid().Select(0) }) // newest first: "chosen"
	if g.Selected() != chosen || g.Opened() != chosen {
		t.Fatalf("selected %d, opened %d, want %d", g.Selected(), g.Opened(), chosen)
	}
	addImage(t, h.Library(), "newest", 32)
	h.UI(g.Reload)
	h.Until("three items", func() bool { return len(g.Items()) == 3 })
	h.UI(func() {
		if g.Selected() != chosen || g.Opened() != chosen {
			t.Errorf("after a reload: selected %d, opened %d, want %d", g.Selected(), g.Opened(), chosen)
		}
		if g.Items()[1].ID != chosen {
			t.Fatalf("items %v", g.Items())
		}
	})
	_ = older
}

// The details pane decodes the original off the UI goroutine, scaled to
// the pane: a 4096-pixel image is never held at full size for it.
func TestDetailsShowALargeImageScaledDown(t *testing.T) {
	g, h := newGallery(t)
	id := addImage(t, h.Library(), "large", detailSide+100)
	h.UI(g.Reload)
	h.Until("the item", func() bool { return len(g.Items()) == 1 })
	h.UI(func() { g.Grid().Select(0) })
	h.Until("the decoded image", func() bool { return g.Shown() != nil })
	h.UI(func() {
		if b := g.Shown().Bounds(); b.Dx() > detailSide || g.Opened() != id {
			t.Errorf("details hold a %dx%d image of item %d", b.Dx(), b.Dy(), g.Opened())
		}
	})
}

// A count that fails is said on the bar, not shown as "0 images".
func TestACountThatFailsIsSaid(t *testing.T) {
	g, h := newGallery(t)
	h.UI(func() {
		g.showPage(h.Library().NewPager(library.Query{}, Page), 0, 0, false, nil, errors.New("disk I/O error"))
		if got := g.count.Text; !strings.Contains(got, "Could not count") || !strings.Contains(got, "disk I/O error") {
			t.Errorf("the bar says %q", got)
		}
	})
}

// The details read as sentences a designer uses: no "true", no "(s)".
func TestDetailsAreWorded(t *testing.T) {
	it := library.Item{Width: 1024, Height: 1536, Format: "png", SizeBytes: 1 << 20, Model: "gpt-image-1",
		Params: library.Params{ImageOptions: api.ImageOptions{Stream: true, PartialImages: 2, N: 2}}}
	got := Describe(it)
	for _, bad := range []string{"true", "false", "(s)", "%"} {
		if strings.Contains(got, bad) {
			t.Errorf("details hold %q:\n%s", bad, got)
		}
	}
	if !strings.Contains(got, "Streamed: Yes, 2 previews") || !strings.Contains(got, "1.0 MiB") {
		t.Errorf("details:\n%s", got)
	}
}

// The details keep what the service did not do of what was asked, with
// the mask's figure, as the job's card said it.
func TestDetailsKeepTheServiceHonesty(t *testing.T) {
	it := library.Item{Width: 1024, Height: 1024, Format: "png", Kind: "edit", Honesty: honesty.Report{Restored: true,
		Checks: []honesty.Check{{Trait: honesty.Count, Asked: "4", Got: "1"}, {Trait: honesty.Mask, Changed: 0.97}}}}
	got := Describe(it)
	for _, want := range []string{"Service: asked for 4 images, the service sent 1", "Service: the service changed 97 % of the area your mask protects; Easel restored it"} {
		if !strings.Contains(got, want) {
			t.Errorf("details lack %q:\n%s", want, got)
		}
	}
}

// Deleting asks, with keeping the image as the default — drawn as the
// default, and what Enter does — and the destructive choice saying what
// it does (issue 40, item 9: Enter kept the image while Delete was drawn
// as the default).
func TestDeleteAsksWithKeepingAsTheDefault(t *testing.T) {
	g, h := newGallery(t)
	addImage(t, h.Library(), "to delete", 32)
	h.UI(g.Reload)
	h.Until("the item", func() bool { return len(g.Items()) == 1 })
	h.UI(func() {
		g.pane.confirmDelete(g.Items()[0])
		top := h.Window().Canvas().Overlays().Top()
		if top == nil {
			t.Fatal("no question before deleting")
		}
		var del, keep *widget.Button
		roomtest.Walk(top, func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok {
				switch b.Text {
				case "Delete image":
					del = b
				case "Keep it":
					keep = b
				}
			}
		})
		if del == nil || keep == nil || del.Importance != widget.DangerImportance || keep.Importance != widget.HighImportance {
			t.Errorf("delete %+v, keep %+v", del, keep)
		}
		if h.Window().Canvas().Focused() != nil {
			t.Error("a focused control would take Enter and Esc from the window's dialog keys")
		}
	})
}

// An item whose file is missing stays in the gallery, marked in the grid,
// and its details say where Easel looked and offer to locate the file or
// remove the item; locating it shows the image again.
func TestAMissingFileIsShownAndCanBeLocated(t *testing.T) {
	g, h := newGallery(t)
	id := addImage(t, h.Library(), "the client's favourite", 32)
	it, _ := h.Library().Get(context.Background(), id)
	path := h.Library().Path(it)
	data, _ := os.ReadFile(path)
	found := filepath.Join(t.TempDir(), "found.png")
	os.WriteFile(found, data, 0o600)
	os.Remove(path)

	h.UI(g.Reload)
	h.Until("the item", func() bool { return len(g.Items()) == 1 })
	h.UI(func() {
		if !g.Items()[0].Missing {
			t.Fatal("the item is not marked missing")
		}
		g.Grid().Select(0)
	})
	h.Until("the cell marked missing", func() bool {
		marked := false
		roomtest.Walk(g.Grid(), func(o fyne.CanvasObject) {
			if c, ok := o.(*fyne.Container); ok && !c.Hidden && len(c.Objects) == 1 {
				if box, ok := c.Objects[0].(*fyne.Container); ok {
					for _, w := range box.Objects {
						if l, ok := w.(*widget.Label); ok && l.Text == "File missing" {
							marked = true
						}
					}
				}
			}
		})
		return marked
	})
	var locate *widget.Button
	h.UI(func() {
		text := ""
		roomtest.Walk(g.pane.box, func(o fyne.CanvasObject) {
			switch w := o.(type) {
			case *widget.Label:
				text += w.Text + "\n"
			case *widget.Button:
				if w.Text == "Locate…" {
					locate = w
				}
			}
		})
		if !strings.Contains(text, path) || !strings.Contains(text, "the client's favourite") {
			t.Errorf("the details do not say where Easel looked, or lost the prompt:\n%s", text)
		}
	})
	if locate == nil {
		t.Fatal("no Locate… button")
	}
	if _, err := h.Library().Locate(context.Background(), id, found); err != nil {
		t.Fatal(err)
	}
	h.UI(g.Reload)
	h.Until("the item found", func() bool { return len(g.Items()) == 1 && !g.Items()[0].Missing })
}

// An edit's details show what it was made from: its inputs, named as the
// prompt named them, and its mask.
func TestDetailsShowWhatAnEditWasMadeFrom(t *testing.T) {
	g, h := newGallery(t)
	enc := func(side int) []byte {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewGray(image.Rect(0, 0, side, side)))
		return buf.Bytes()
	}
	_, err := h.Library().Add(context.Background(), library.NewItem{Image: api.Image{Data: enc(16), Format: "png", Width: 16, Height: 16},
		Kind: "edit", Prompt: "the chair from the second in the first", Created: time.Now(),
		Inputs: []library.Input{{Name: "room.png", Data: enc(16)}, {Name: "chair.png", Data: enc(8)}}, Mask: &library.Input{Name: "mask.png", Data: enc(17)}})
	if err != nil {
		t.Fatal(err)
	}
	h.UI(g.Reload)
	h.Until("the item", func() bool { return len(g.Items()) == 1 })
	h.UI(func() { g.Grid().Select(0) })
	var captions []string
	h.Until("made from", func() bool {
		captions = nil
		for _, o := range g.pane.box.Objects {
			if box, ok := o.(*fyne.Container); ok && box.Visible() && len(box.Objects) == 2 {
				if l, ok := box.Objects[0].(*widget.Label); ok && l.Text == "Made from" {
					for _, cell := range box.Objects[1].(*fyne.Container).Objects {
						captions = append(captions, cell.(*fyne.Container).Objects[1].(*widget.Label).Text)
					}
				}
			}
		}
		return len(captions) > 0
	})
	if strings.Join(captions, " ") != "1st 2nd mask" {
		t.Errorf("made from %v, want 1st 2nd mask", captions)
	}
}

// rows inserts n rows straight into the index (no files), the i-th of
// kind kinds[i%len(kinds)], made i seconds after a fixed time.
func rows(t *testing.T, lib *library.Library, n int, kinds ...string) {
	t.Helper()
	tx, err := lib.DB().Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := tx.Exec(`INSERT INTO items (file, format, width, height, size_bytes, kind, prompt, created_ms) VALUES (?, 'png', 64, 48, 1, ?, ?, ?)`,
			fmt.Sprintf("images/x/%d.png", i), kinds[i%len(kinds)], fmt.Sprintf("row %d", i), time.Date(2026, 5, 1, 0, 0, i, 0, time.UTC).UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// The grid holds every item, not a first page: scrolled to the end, it
// reads the last page and shows the oldest image; a filter narrows it
// and the bar says how many match.
func TestTheGridReachesEveryItemAndFilters(t *testing.T) {
	g, h := newGallery(t)
	rows(t, h.Library(), 2*Page+50, "generate", "edit")
	h.UI(g.Reload)
	h.Until("the count", func() bool { return g.Total() == 2*Page+50 })
	h.UI(func() { g.Grid().ScrollToBottom() })
	h.Until("the last page", func() bool {
		it, ok := g.item(2*Page + 49)
		return ok && it.Prompt == "row 0"
	})
	if n := len(g.pager.Query().Kinds); n != 0 {
		t.Fatalf("a filter is on: %v", g.pager.Query())
	}
	h.UI(func() { g.filters.kind.SetSelected("Edited") })
	h.Until("the filtered count", func() bool { return g.Total() == Page+25 })
	h.UI(func() {
		if got := g.count.Text; got != "225 of 450 images" {
			t.Errorf("the bar says %q", got)
		}
		g.filters.order.SetSelected("Oldest first")
	})
	h.Until("oldest first", func() bool {
		it, ok := g.item(0)
		return ok && it.Prompt == "row 1"
	})
	h.UI(func() { g.filters.from.SetText("not a date") })
	h.UI(func() {
		if !strings.Contains(g.count.Text, "write a date as") {
			t.Errorf("a bad date: the bar says %q", g.count.Text)
		}
	})
}

// Keys choose several items and act on them: Shift+arrows extend, F
// marks them favourites, Ctrl+E hands them to the export in the order
// chosen.
func TestKeysSelectAndActOnSeveral(t *testing.T) {
	h := roomtest.New(t)
	var exported []library.Item
	g := New(h, exportRecorder{&exported})
	h.Show(g.Build)
	var ids []int64
	for i := 0; i < 5; i++ {
		ids = append(ids, addImage(t, h.Library(), fmt.Sprint("picture ", i), 16))
	}
	h.UI(g.Reload)
	h.Until("five items", func() bool { return len(g.Items()) == 5 })
	h.UI(func() {
		g.Grid().Select(1)
		g.Grid().TypedShortcut(&fyne.ShortcutSelectAll{})
		g.Grid().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		g.Grid().Select(1)
		g.Grid().Selection().Extend(3) // as Shift+click or Shift+Right twice
		g.Grid().Refresh()
		g.batch.sync()
		if !g.pane.scope.Visible() || !strings.Contains(g.pane.scope.Text, "all 3 selected") {
			t.Errorf("with three selected the details do not say which buttons act on what: %q", g.pane.scope.Text)
		}
		g.batch.onKey("favourite")
	})
	h.Until("three favourites", func() bool {
		n, _ := h.Library().Count(context.Background(), library.Query{Favorites: true})
		return n == 3
	})
	h.UI(func() { g.batch.onKey("export") })
	h.Until("the export", func() bool { return len(exported) == 3 })
	// Newest first: places 1..3 are pictures 3, 2, 1.
	if exported[0].ID != ids[3] || exported[1].ID != ids[2] || exported[2].ID != ids[1] {
		t.Errorf("exported %d %d %d, want %d %d %d", exported[0].ID, exported[1].ID, exported[2].ID, ids[3], ids[2], ids[1])
	}
}

// exportRecorder is a gallery's other tabs that records ExportMany.
type exportRecorder struct{ got *[]library.Item }

func (exportRecorder) Reuse(library.Item)            {}
func (exportRecorder) SendToEdit(library.Item)       {}
func (exportRecorder) SendToChat(library.Item)       {}
func (exportRecorder) EditThis(library.Item)         {}
func (exportRecorder) ExpandCanvas(library.Item)     {}
func (exportRecorder) MoreLikeThis(library.Item)     {}
func (exportRecorder) Export(library.Item)           {}
func (r exportRecorder) ExportMany(i []library.Item) { *r.got = i }

// Deleting offers Undo until Easel closes; importing the same file twice
// keeps it once.
func TestDeleteUndoAndImport(t *testing.T) {
	g, h := newGallery(t)
	addImage(t, h.Library(), "keep", 16)
	gone := addImage(t, h.Library(), "gone", 16)
	h.UI(g.Reload)
	h.Until("two items", func() bool { return g.Total() == 2 })
	it, _ := h.Library().Get(context.Background(), gone)
	h.UI(func() { g.batch.deleteItems([]library.Item{it}) })
	h.Until("one item", func() bool { return g.Total() == 1 })
	h.UI(func() {
		if !g.batch.undoBar.Visible() || !strings.Contains(g.batch.undoText.Text, "Deleted 1 image") {
			t.Errorf("no Undo after a delete: %q", g.batch.undoText.Text)
		}
		g.grid.TypedShortcut(&fyne.ShortcutUndo{}) // Ctrl+Z, as Edit ▸ Undo hands it to the grid
	})
	h.Until("two again", func() bool { return g.Total() == 2 })

	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 9, 9)))
	p := filepath.Join(t.TempDir(), "sketch.png")
	os.WriteFile(p, buf.Bytes(), 0o600)
	h.UI(func() { g.Import([]string{p, p}) })
	h.Until("the import", func() bool { return g.Total() == 3 })
	if n, _ := h.Library().Count(context.Background(), library.Query{Kinds: []string{"imported"}}); n != 1 {
		t.Errorf("%d imported items for the same file twice", n)
	}
}

// An edit's details show its parent and offer to compare with it; the
// parent's details show the edit as made from it.
func TestLineageAndCompare(t *testing.T) {
	g, h := newGallery(t)
	parent := addImage(t, h.Library(), "parent", 16)
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 16, 16)))
	child, err := h.Library().Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 16, Height: 16},
		Kind: "edit", Prompt: "child", Created: time.Now(), Parents: []int64{parent}})
	if err != nil {
		t.Fatal(err)
	}
	labels := func() string {
		var s string
		roomtest.Walk(g.pane.box, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && l.Visible() {
				s += l.Text + "|"
			}
			if b, ok := o.(*widget.Button); ok && b.Visible() {
				s += "[" + b.Text + "]|"
			}
		})
		return s
	}
	h.UI(func() { g.OpenID(child) })
	h.Until("the edit's lineage", func() bool {
		s := labels()
		return strings.Contains(s, "Made from (gallery)") && strings.Contains(s, "[Compare…]")
	})
	h.UI(func() { g.OpenID(parent) })
	h.Until("the parent's children", func() bool { return strings.Contains(labels(), "Made from this") })
}

// The large view steps through the gallery's order with the arrow keys,
// moving the grid's cursor so the details follow, and closes on Esc.
func TestLargeViewStepsAndClosesOnEsc(t *testing.T) {
	g, h := newGallery(t)
	for i, side := range []int{32, 40, 48} {
		addImage(t, h.Library(), fmt.Sprint("image ", i), side)
	}
	h.UI(g.Reload)
	h.Until("three items", func() bool { return len(g.Items()) == 3 })
	h.UI(func() { g.openAt(0) })
	shown := func() int { // on the UI goroutine
		if v, ok := h.Window().Canvas().Focused().(*zoomview.View); ok && v.Image() != nil {
			return v.Image().Bounds().Dx()
		}
		return 0
	}
	key := func(k fyne.KeyName) {
		h.UI(func() { h.Window().Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: k}) })
	}
	h.Until("the newest, large", func() bool { return shown() == 48 })
	key(fyne.KeyRight)
	h.Until("the next, large", func() bool { return shown() == 40 })
	h.UI(func() {
		if c := g.Grid().Selection().Cursor(); c != 1 {
			t.Errorf("the grid's cursor is at %d", c)
		}
	})
	key(fyne.KeyRight)
	h.Until("the last, large", func() bool { return shown() == 32 })
	key(fyne.KeyRight) // nothing after the last
	key(fyne.KeyLeft)
	h.Until("back one", func() bool { return shown() == 40 })
	key(fyne.KeyEscape)
	h.UI(func() {
		if h.Window().Canvas().Overlays().Top() != nil {
			t.Error("Esc left the large view open")
		}
	})
}

// Make transparent keys the background out through the dialog and keeps
// the result as a cut-out under the original.
func TestMakeTransparentKeepsACutOutUnderTheOriginal(t *testing.T) {
	g, h := newGallery(t)
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			c := color.NRGBA{0, 255, 0, 255}
			if x >= 16 && x < 48 && y >= 16 && y < 48 {
				c = color.NRGBA{200, 30, 30, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	id, err := h.Library().Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 64, Height: 64},
		Kind: "generate", Prompt: "a red square on green", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	h.UI(g.Reload)
	h.Until("the item", func() bool { return len(g.Items()) == 1 })
	h.UI(func() { g.pane.makeTransparent(g.Items()[0]) })
	ok, _ := h.Overlay("Make transparent")
	h.Until("the preview", func() bool { return !ok.Disabled() })
	h.UI(ok.OnTapped)
	h.Until("the cut-out", func() bool { return len(g.Items()) == 2 })
	kids, err := h.Library().Lineage().Children(context.Background(), id)
	if err != nil || len(kids) != 1 || kids[0].Kind != "cutout" {
		t.Fatalf("children of the original: %v %v", kids, err)
	}
	got, err := imageio.DecodeFile(h.Library().Path(kids[0]))
	if err != nil {
		t.Fatal(err)
	}
	n := imageio.AsNRGBA(got)
	if n.NRGBAAt(2, 2).A != 0 || n.NRGBAAt(32, 32) != (color.NRGBA{200, 30, 30, 255}) {
		t.Errorf("corner %v, middle %v", n.NRGBAAt(2, 2), n.NRGBAAt(32, 32))
	}
}

// Refining with the brush keeps what the brush brought back, in the
// original's colours.
func TestRefineACutOutWithTheBrush(t *testing.T) {
	g, h := newGallery(t)
	img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{0, 255, 0, 255})
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	id, err := h.Library().Add(context.Background(), library.NewItem{Image: api.Image{Data: buf.Bytes(), Format: "png", Width: 64, Height: 64},
		Kind: "generate", Prompt: "all green", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	h.UI(g.Reload)
	h.Until("the item", func() bool { return len(g.Items()) == 1 })
	h.UI(func() { g.pane.makeTransparent(g.Items()[0]) })
	refine, _ := h.Overlay("Refine with the brush…")
	h.Until("the preview", func() bool { return !refine.Disabled() })
	h.UI(refine.OnTapped)
	keep, _ := h.Overlay("Keep the cut-out")
	h.UI(func() {
		p := h.Window().Canvas().Focused().(*maskpaint.Painter)
		p.Do(func(m *mask.Mask) { m.Rect(image.Rect(0, 0, 8, 8), true) }) // bring the corner back
		keep.OnTapped()
	})
	h.Until("the cut-out", func() bool { return len(g.Items()) == 2 })
	kids, _ := h.Library().Lineage().Children(context.Background(), id)
	got, err := imageio.DecodeFile(h.Library().Path(kids[0]))
	if err != nil {
		t.Fatal(err)
	}
	n := imageio.AsNRGBA(got)
	if n.NRGBAAt(2, 2) != (color.NRGBA{0, 255, 0, 255}) || n.NRGBAAt(30, 30).A != 0 {
		t.Errorf("corner %v, middle %v", n.NRGBAAt(2, 2), n.NRGBAAt(30, 30))
	}
}

// The gallery's state follows what it shows: a search that hides the
// open item empties the details, a delete leaves no stale count, and
// Undo brings the item back into the details.
func TestStateFollowsWhatIsShown(t *testing.T) {
	g, h := newGallery(t)
	cat := addImage(t, h.Library(), "a cat", 16)
	dog := addImage(t, h.Library(), "a dog", 16)
	h.UI(g.Reload)
	h.Until("two items", func() bool { return len(g.Items()) == 2 })
	h.UI(func() { g.Grid().Select(0) }) // the dog, newest first
	h.Until("the dog open", func() bool { return g.Opened() == dog })
	h.UI(func() { g.Find().Set("cat") })
	h.Until("the search answered", func() bool { return g.Answered() && len(g.Items()) == 1 })
	h.UI(func() {
		if g.Opened() != 0 {
			t.Errorf("the details still show item %d, which the search hides", g.Opened())
		}
	})
	h.UI(func() { g.Find().Set("") })
	h.Until("both again", func() bool { return g.Answered() && len(g.Items()) == 2 })
	h.UI(func() {
		g.Grid().Selection().All(2)
		g.Grid().Refresh()
		g.batch.sync()
		g.batch.deleteItems(g.Items())
	})
	h.Until("both deleted", func() bool { return g.Answered() && len(g.Items()) == 0 })
	h.UI(func() {
		if !g.batch.box.Hidden {
			t.Errorf("the selection bar still says %q", g.batch.count.Text)
		}
		g.batch.undoDelete()
	})
	h.Until("back, and open", func() bool { return len(g.Items()) == 2 && g.Opened() != 0 })
	_ = cat
}

// #57: Enter or Down in the search goes to the results, where the arrows
// and Enter browse at once.
func TestEnterInTheSearchGoesToTheResults(t *testing.T) {
	g, h := newGallery(t)
	rows(t, h.Library(), 3, "generate")
	h.UI(g.Reload)
	h.Until("the count", func() bool { return g.Total() == 3 })
	h.UI(func() {
		c := h.Window().Canvas()
		c.Focus(g.search)
		g.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if c.Focused() != fyne.Focusable(g.grid) {
			t.Errorf("focus is on %T after Enter, not the results", c.Focused())
		}
		c.Focus(g.search)
		g.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		if c.Focused() != fyne.Focusable(g.grid) {
			t.Errorf("focus is on %T after Down, not the results", c.Focused())
		}
	})
}

// A prompt of several lines is the large view's title on one line: a
// title label shows its first line only, and cut the prompt at its break.
func TestATitleIsOnOneLine(t *testing.T) {
	if got := shortTitle(library.Item{ID: 3, Prompt: "a lighthouse\nat dusk,   long exposure"}); got != "a lighthouse at dusk, long exposure" {
		t.Errorf("title %q", got)
	}
	if got := shortTitle(library.Item{ID: 3}); got != "Image 3" {
		t.Errorf("title of no prompt %q", got)
	}
}
