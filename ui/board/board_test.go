package board

import (
	"context"
	"image"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"easel/internal/api"
	"easel/internal/config"
	"easel/internal/jobs"
	"easel/internal/library"
	"easel/internal/testsupport/fixture"
	"easel/ui/batches"
	"easel/ui/room/roomtest"
)

// A board sends one request per value (here three qualities), shows
// each cell's end with its time and cost, and finishing sends the
// unticked pictures to the trash, which Undo brings back.
func TestABoardComparesAndKeepsTheWinners(t *testing.T) {
	h := roomtest.New(t)
	var b *Board
	var sent []jobs.Request
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Queued {
			sent = append(sent, e.Job.Request)
		}
	}
	h.UI(func() {
		b = Open(h, "a red kite over the sea", api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}, []string{"gpt-image-1", "gpt-image-2"})
		if got := Values(b.values.Text); len(got) != 2 || got[1] != "gpt-image-2" {
			t.Errorf("the models offered: %v", got)
		}
		b.axis.SetSelected(axisLabels()[Quality])
		if !strings.Contains(b.estimate.Text, "3 requests") || !strings.Contains(b.estimate.Text, "$") {
			t.Errorf("the estimate reads %q", b.estimate.Text)
		}
		b.run.OnTapped()
	})
	h.Until("three cells done", func() bool {
		if len(b.cells) != 3 {
			return false
		}
		for _, c := range b.cells {
			if !c.ended {
				return false
			}
		}
		return true
	})
	h.UI(func() {
		for i, c := range b.cells {
			if len(c.items) != 1 || !strings.Contains(c.state.Text, "Done in") || !strings.Contains(c.state.Text, "$") || !c.keep.Checked {
				t.Errorf("cell %d (%s): %q, items %v", i, c.value, c.state.Text, c.items)
			}
		}
		qualities := map[string]bool{}
		for _, r := range sent {
			qualities[r.Generate.Quality] = r.Listener != nil && r.Generate.Prompt == "a red kite over the sea" && r.Generate.N == 1
		}
		if len(sent) != 3 || !qualities["low"] || !qualities["medium"] || !qualities["high"] {
			t.Errorf("sent %d requests: %v", len(sent), qualities)
		}
		b.cells[1].keep.SetChecked(false)
		if b.finish.Disabled() {
			t.Fatal("finish is off after every job ended")
		}
		b.finish.OnTapped()
	})
	ctx := context.Background()
	h.Until("one discarded", func() bool {
		n, _ := h.Library().Count(ctx, library.Query{})
		return len(b.Discarded) == 1 && n == 2
	})
	h.UI(b.undo.OnTapped)
	h.Until("brought back", func() bool { n, _ := h.Library().Count(ctx, library.Query{}); return n == 3 })
}

// Fewer than two values cannot be sent.
func TestABoardNeedsTwoValues(t *testing.T) {
	h := roomtest.New(t)
	h.UI(func() {
		b := Open(h, "p", api.ImageOptions{Model: "gpt-image-1"}, nil)
		if !b.run.Disabled() {
			t.Error("one model can be sent as a comparison")
		}
		b.values.SetText("gpt-image-1, gpt-image-2, a, b, c, d, e, f")
		if len(Values(b.values.Text)) != MaxCells || b.run.Disabled() {
			t.Errorf("values %v", Values(b.values.Text))
		}
	})
}

// A batch crosses its values into requests, never has more than the
// concurrency chosen out at once, and ends with every cell made and a
// contact sheet of them all.
func TestABatchRunsWithinItsConcurrency(t *testing.T) {
	h := roomtest.New(t)
	var b *Board
	out, most := 0, 0
	h.OnJob = func(e jobs.Event) {
		switch {
		case e.State == jobs.Queued:
			out++
			most = max(most, out)
		case e.State.Final():
			out--
		}
	}
	var v *batchView
	h.UI(func() {
		b = OpenBatch(h, h.Batches(), "a {animal} in {style}", api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"})
		v = batchOf(b)
	})
	h.UI(func() {
		v.values.SetText("animal = cat, dog\nstyle = ink, oil, clay")
		v.concurrency.SetSelected("2")
		if !strings.Contains(b.estimate.Text, "6 requests") {
			t.Errorf("the estimate reads %q", b.estimate.Text)
		}
		b.run.OnTapped()
	})
	h.Until("the batch's end", func() bool { return strings.Contains(b.status.Text, "6 made") })
	if most > 2 {
		t.Errorf("%d requests were out at once, more than 2", most)
	}
	h.UI(func() {
		if b.cells[0].value != "cat · ink" || b.cells[5].value != "dog · clay" || v.sheet.Disabled() {
			t.Errorf("cells %q … %q, sheet off %v", b.cells[0].value, b.cells[5].value, v.sheet.Disabled())
		}
	})
	sheet, err := b.Sheet(context.Background())
	if err != nil || sheet.Bounds().Dx() < 3*256 {
		t.Errorf("sheet %v, %v", sheet.Bounds(), err)
	}
}

// Rows name their columns; a column that is neither a variable nor an
// option is said before anything is sent.
func TestABatchSaysWhatIsWrongWithItsRows(t *testing.T) {
	h := roomtest.New(t)
	h.UI(func() {
		b := OpenBatch(h, h.Batches(), "a {animal}", api.ImageOptions{Model: "gpt-image-1"})
		v := batchOf(b)
		v.mode.SetSelected(modeLabels()[1])
		v.values.SetText("animal,colour\ncat,red\n")
		if !b.run.Disabled() || !strings.Contains(b.estimate.Text, "colour") {
			t.Errorf("run off %v, estimate %q", b.run.Disabled(), b.estimate.Text)
		}
		v.values.SetText("animal,size\ncat,1024x1024\ndog,1536x1024\n")
		if b.run.Disabled() || !strings.Contains(b.estimate.Text, "2 requests") {
			t.Errorf("run off %v, estimate %q", b.run.Disabled(), b.estimate.Text)
		}
	})
}

// Across profiles, each request goes on its own profile, with its image
// model, and the estimate is each profile's own.
func TestABoardComparesProfiles(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{Profile: &config.Profile{ID: "studio", Name: "Studio"}})
	h.Until("connected", func() bool { return h.Session().Client() != nil })
	saved := false
	h.UI(func() {
		cur := h.Session().Current()
		h.Session().SaveProfile(config.Profile{ID: "resell", Name: "Reseller", BaseURL: cur.BaseURL, ImageModel: "gpt-image-1-mini"}, func() { saved = true })
	})
	h.Until("the second profile", func() bool { return saved })
	var b *Board
	var sent []jobs.Request
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Queued {
			sent = append(sent, e.Job.Request)
		}
	}
	h.UI(func() {
		b = Open(h, "a lantern", api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"}, nil)
		b.axis.SetSelected(axisLabels()[Profile])
		if got := Values(b.values.Text); len(got) != 2 {
			t.Errorf("profiles offered: %v", got)
		}
		if !strings.Contains(b.estimate.Text, "Studio: $") || !strings.Contains(b.estimate.Text, "Reseller: $") {
			t.Errorf("the estimate reads %q", b.estimate.Text)
		}
		b.run.OnTapped()
	})
	h.Until("both done", func() bool {
		return len(b.cells) == 2 && b.cells[0].ended && b.cells[1].ended && len(b.cells[0].items)+len(b.cells[1].items) == 2
	})
	models := map[string]string{}
	for _, r := range sent {
		models[r.Profile] = r.Generate.Model
	}
	if models["studio"] != "gpt-image-1" || models["resell"] != "gpt-image-1-mini" {
		t.Errorf("sent by profile: %v", models)
	}
}

// An edit's board (Edit's Compare…) sends the same edit, its inputs,
// mask and kept area, to each model; the size is the edit's own, so it
// is not offered; each cell ends with the edit's pictures.
func TestABoardComparesAnEdit(t *testing.T) {
	h := roomtest.New(t)
	var b *Board
	var sent []jobs.Request
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Queued {
			sent = append(sent, e.Job.Request)
		}
	}
	pngOf := func(w, hgt int, fill uint8) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, w, hgt))
		for i := range img.Pix {
			img.Pix[i] = fill
		}
		buf := fixture.PNG(t, img)
		return buf
	}
	input := api.InputImage{Name: "room.png", ContentType: "image/png", Data: pngOf(64, 64, 200)}
	mask := api.InputImage{Name: "mask.png", ContentType: "image/png", Data: pngOf(64, 64, 0)}
	edit := jobs.Request{
		Edit:    &api.EditRequest{Prompt: "a blue sofa", Images: []api.InputImage{input}, Mask: &mask, ImageOptions: api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}},
		Parents: []int64{7},
		Keep:    &jobs.Keep{Feather: 8},
	}
	h.UI(func() {
		b = OpenEdit(h, edit, []string{"gpt-image-1", "gpt-image-2"})
		for _, l := range b.axis.Options {
			if l == axisLabels()[Size] {
				t.Error("an edit's board offers to compare sizes")
			}
		}
		if got := Values(b.values.Text); len(got) != 2 || got[1] != "gpt-image-2" {
			t.Errorf("the models offered: %v", got)
		}
		b.run.OnTapped()
	})
	h.Until("two cells done", func() bool {
		if len(b.cells) != 2 {
			return false
		}
		for _, c := range b.cells {
			if !c.ended {
				return false
			}
		}
		return true
	})
	h.UI(func() {
		models := map[string]bool{}
		for _, r := range sent {
			e := r.Edit
			if r.Generate != nil || e == nil || e.Prompt != "a blue sofa" || len(e.Images) != 1 || e.Mask == nil || r.Keep == nil || r.Listener == nil || len(r.Parents) != 1 {
				t.Errorf("sent %+v, want the edit with its input, mask, kept area and parent", r)
				continue
			}
			models[e.Model] = true
		}
		if len(sent) != 2 || !models["gpt-image-1"] || !models["gpt-image-2"] {
			t.Errorf("sent %d edits to %v", len(sent), models)
		}
		for i, c := range b.cells {
			if !strings.Contains(c.state.Text, "Done in") || len(c.items) != 2 {
				t.Errorf("cell %d (%s): %q, items %v; want done with the edit as sent and kept", i, c.value, c.state.Text, c.items)
			}
		}
	})
}

// #57: one set of options across models: each cell sends the values its
// model's sheet lists (High is hd to dall-e-3) and says what it changed,
// rather than be refused; a refusal is wrapped in its cell.
func TestABoardSendsEachModelTheValuesItTakes(t *testing.T) {
	h := roomtest.New(t)
	var b *Board
	var sent []jobs.Request
	h.OnJob = func(e jobs.Event) {
		if e.State == jobs.Queued {
			sent = append(sent, e.Job.Request)
		}
	}
	h.UI(func() {
		b = Open(h, "a red kite over the sea", api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "high"}, []string{"gpt-image-1", "dall-e-3"})
		b.axis.SetSelected(axisLabels()[Model])
		b.values.SetText("gpt-image-1, dall-e-3")
		b.run.OnTapped()
	})
	h.Until("two cells ended", func() bool {
		if len(b.cells) != 2 {
			return false
		}
		return b.cells[0].ended && b.cells[1].ended
	})
	h.UI(func() {
		quality := map[string]string{}
		for _, r := range sent {
			quality[r.Generate.Model] = r.Generate.Quality
		}
		if quality["gpt-image-1"] != "high" || quality["dall-e-3"] != "hd" {
			t.Errorf("sent %v", quality)
		}
		if said := b.cells[1].said.Text; !strings.Contains(said, `quality "high" sent as "hd", the nearest dall-e-3 takes`) {
			t.Errorf("the dall-e-3 cell says %q", said)
		}
		if strings.Contains(b.cells[0].said.Text, "sent as") {
			t.Errorf("the gpt-image-1 cell says %q", b.cells[0].said.Text)
		}
		if b.cells[1].state.Wrapping != fyne.TextWrapWord {
			t.Error("a cell's state is not wrapped")
		}
	})
}

// #56: a template batch offers the Batch API where the service takes it,
// with both lanes' estimates side by side; sent that way it is one batch
// whose pictures land in the gallery at the batch's price, told of once.
// Through a gateway without it, the board says why and offers only now.
func TestABatchGoesTheCheaperLane(t *testing.T) {
	h := roomtest.New(t)
	h.Until("connected", func() bool { return h.Session().Client() != nil })
	var b *Board
	var v *batchView
	h.UI(func() {
		b = OpenBatch(h, h.Batches(), "a {animal}", api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024", Quality: "low"})
		v = batchOf(b)
		v.values.SetText("animal = cat, dog, owl")
	})
	h.Until("the lane choice", func() bool { return v.lane.Visible() })
	h.UI(func() {
		if !strings.Contains(b.estimate.Text, "3 requests: ") || !strings.Contains(b.estimate.Text, "now, ") || !strings.Contains(b.estimate.Text, "within 24 h through the Batch API") {
			t.Errorf("the estimate reads %q", b.estimate.Text)
		}
		v.lane.SetSelected(batches.Lanes()[1])
		b.run.OnTapped()
	})
	h.Until("the batch made", func() bool { return strings.Contains(b.status.Text, "Sent as one batch of 3 requests") })
	h.Until("its pictures in the gallery", func() bool {
		n, _ := h.Library().Count(context.Background(), library.Query{})
		return n == 3 && len(h.Notified) == 1
	})
	rows, _ := h.Library().Ledger().Entries(context.Background(), time.Time{})
	for _, r := range rows {
		if !strings.Contains(r.Note, "Batch API's price") {
			t.Errorf("row %+v", r)
		}
	}
	h.UI(func() {
		if len(rows) != 3 || !strings.Contains(h.Notified[0], "All 3 pictures are in the gallery") {
			t.Errorf("%d rows; told %q", len(rows), h.Notified)
		}
	})
}

func TestNoCheaperLaneThroughAGatewayWithoutBatches(t *testing.T) {
	h := roomtest.NewWith(t, roomtest.Options{Batches: "none"})
	h.Until("connected", func() bool { return h.Session().Client() != nil })
	var v *batchView
	h.UI(func() { v = batchOf(OpenBatch(h, h.Batches(), "a {animal}", api.ImageOptions{Model: "gpt-image-1"})) })
	h.Until("the reason", func() bool {
		return strings.Contains(v.laneNote.Text, "Only now: the service has no Batch API (HTTP 404).")
	})
	h.UI(func() {
		if v.lane.Visible() {
			t.Error("the cheaper lane is offered")
		}
	})
}

// Three models on a board at 1280x800 and 1024x700: every cell on the
// dialog, side by side, titled, its picture as wide as its column, and
// a refusal wrapped within its cell (#57: each cell was ~870 wide and
// the third off-screen). Large cells wrap to more rows, not off it.
func TestABoardFitsEveryCellOnScreen(t *testing.T) {
	h := roomtest.New(t)
	var b *Board
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 700}} {
		h.UI(func() {
			h.Window().Resize(size)
			b = Open(h, "a red kite over the sea", api.ImageOptions{Model: "gpt-image-1", Size: "1024x1024"}, []string{"gpt-image-1", "dall-e-3"})
			b.axis.SetSelected(axisLabels()[Model])
			b.values.SetText("gpt-image-1, dall-e-3, fault-invalid-size")
			b.run.OnTapped()
		})
		h.Until("three cells ended", func() bool {
			return len(b.cells) == 3 && b.cells[0].ended && b.cells[1].ended && b.cells[2].ended
		})
		h.UI(func() {
			d := fyne.CurrentApp().Driver()
			scroll := b.grid
			right := d.AbsolutePositionForObject(scroll).X + scroll.Size().Width
			var y float32 = -1
			for i, c := range b.cells {
				at := d.AbsolutePositionForObject(c.box)
				if at.X < 0 || at.X+c.box.Size().Width > right+0.5 || at.X+c.box.Size().Width > size.Width {
					t.Errorf("at %v cell %d runs %v–%v, past the board's edge %v", size, i, at.X, at.X+c.box.Size().Width, right)
				}
				if y >= 0 && at.Y != y {
					t.Errorf("at %v cell %d is on another row (y %v, not %v)", size, i, at.Y, y)
				}
				y = at.Y
				if bottom, seen := at.Y+c.box.Size().Height, d.AbsolutePositionForObject(b.scroll).Y+b.scroll.Size().Height; size.Width == 1280 && bottom > seen+1 {
					t.Errorf("at %v cell %d ends at y %v, under the board's view (%v)", size, i, bottom, seen)
				}
				if c.pic.Size().Width < c.box.Size().Width-1 {
					t.Errorf("at %v cell %d's picture is %v wide in a cell of %v", size, i, c.pic.Size().Width, c.box.Size().Width)
				}
			}
			refused := b.cells[2].state
			if !strings.Contains(refused.Text, "size") || refused.Wrapping != fyne.TextWrapWord || refused.Size().Width > b.cells[2].box.Size().Width {
				t.Errorf("at %v the refusal %q is %v wide in a cell of %v", size, refused.Text, refused.Size().Width, b.cells[2].box.Size().Width)
			}
			b.layout.width = cellLarge
			b.grid.Refresh()
			if n := b.layout.columns(3, b.grid.Size().Width); n >= 3 {
				t.Errorf("at %v large cells still fit three to a row (%v wide)", size, b.grid.Size().Width)
			}
			b.d.Hide()
		})
	}
}
