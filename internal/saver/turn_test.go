package saver

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"
	"time"

	"easel/internal/api"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/jobs"
	"easel/internal/library"
)

// #55: an edit that continues a gallery picture is a turn of that
// picture's thread: the kept copy when the unmasked area was kept (what
// the designer goes on from), with the share of the protected area the
// service changed, as a pixel count of the two pictures gives it; an
// edit without a mask measures the whole picture.
func TestAContinuedEditIsATurnWithItsDrift(t *testing.T) {
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ctx := context.Background()
	enc := func(img image.Image) []byte {
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		return buf.Bytes()
	}
	const side = 40
	before := image.NewNRGBA(image.Rect(0, 0, side, side))
	after := image.NewNRGBA(image.Rect(0, 0, side, side))
	mask := image.NewNRGBA(image.Rect(0, 0, side, side))
	for y := range side {
		for x := range side {
			before.SetNRGBA(x, y, color.NRGBA{40, 90, 140, 255})
			after.SetNRGBA(x, y, color.NRGBA{40, 90, 140, 255})
			if x >= side/2 {
				after.SetNRGBA(x, y, color.NRGBA{250, 10, 10, 255}) // painted: may change
			} else {
				mask.SetNRGBA(x, y, color.NRGBA{A: 255}) // protected
				if y < 10 {
					after.SetNRGBA(x, y, color.NRGBA{200, 200, 0, 255}) // strayed
				}
			}
		}
	}
	start, err := lib.Add(ctx, library.NewItem{Image: api.Image{Data: enc(before), Format: "png", Width: side, Height: side}, Kind: "generate", Prompt: "a lighthouse"})
	if err != nil {
		t.Fatal(err)
	}
	send := func(prompt string, masked bool, from int64) jobs.Saved {
		t.Helper()
		e := &api.EditRequest{Prompt: prompt, Images: []api.InputImage{{Name: "first.png", ContentType: "image/png", Data: enc(before)}}}
		req := jobs.Request{Edit: e, Parents: []int64{from}, Continues: from}
		if masked {
			e.Mask = &api.InputImage{Name: "mask.png", ContentType: "image/png", Data: enc(mask)}
			req.Keep = &jobs.Keep{}
		}
		res := &api.ImageResult{Images: []api.Image{{Data: enc(after), Format: "png", Width: side, Height: side}}}
		job := jobs.Info{ID: prompt, Started: time.Now(), Request: req}
		out := Library{Lib: lib}.Save(ctx, job, res, honesty.Report{}, req.Pictures(res))
		return out[len(out)-1]
	}
	masked := send("warmer, inside the marks", true, start)
	whole := send("warmer everywhere", false, start)
	turns, err := lib.Lineage().Thread(ctx, start)
	if err != nil || len(turns) != 3 {
		t.Fatalf("the thread: %+v, %v", turns, err)
	}
	if it, _ := lib.Get(ctx, turns[1].Item); turns[1].Item != masked.Item || it.Kind != "kept" {
		t.Errorf("the masked turn is item %d (%s), want the kept copy %d", turns[1].Item, it.Kind, masked.Item)
	}
	// Protected: the left half, 20×40; strayed: its top 10 rows, 20×10.
	if d := turns[1].Drift; d == nil || math.Abs(*d-0.25) > 0.01 {
		t.Errorf("the masked turn's drift: %v, want 0.25", d)
	}
	// Without a mask: the right half and the strayed rows, 20×40 + 20×10.
	if d := turns[2].Drift; turns[2].Item != whole.Item || d == nil || math.Abs(*d-0.625) > 0.01 {
		t.Errorf("the unmasked turn: %+v, want drift 0.625", turns[2])
	}
	for _, turn := range turns[1:] {
		if turn.Parent != start || turn.Way != library.WayImages {
			t.Errorf("turn %d: %+v", turn.Number, turn)
		}
	}
}

// #55: an area painted over a turn is taken back from an earlier turn
// exactly (the seam feathered into the painted area only), nothing else
// of the picture moves, and the result is the next turn of the thread,
// made on this machine.
func TestRestoreTakesAPaintedAreaBackFromAnEarlierTurn(t *testing.T) {
	lib, err := library.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	ctx := context.Background()
	const side = 64
	solid := func(c color.NRGBA) []byte {
		img := image.NewNRGBA(image.Rect(0, 0, side, side))
		for i := 0; i < len(img.Pix); i += 4 {
			copy(img.Pix[i:], []byte{c.R, c.G, c.B, c.A})
		}
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		return buf.Bytes()
	}
	red, blue := color.NRGBA{200, 30, 30, 255}, color.NRGBA{30, 30, 200, 255}
	add := func(data []byte, prompt string) library.Item {
		id, err := lib.Add(ctx, library.NewItem{Image: api.Image{Data: data, Format: "png", Width: side, Height: side}, Kind: "edit", Prompt: prompt})
		if err != nil {
			t.Fatal(err)
		}
		it, _ := lib.Get(ctx, id)
		return it
	}
	first, second := add(solid(red), "a red barn"), add(solid(blue), "a blue barn")
	if err := lib.Lineage().AddTurn(ctx, library.Turn{Item: second.ID, Parent: first.ID, Way: library.WayImages}); err != nil {
		t.Fatal(err)
	}
	// Painted: the left half (transparent: the area taken back).
	m := image.NewNRGBA(image.Rect(0, 0, side, side))
	for y := range side {
		for x := side / 2; x < side; x++ {
			m.SetNRGBA(x, y, color.NRGBA{A: 255})
		}
	}
	var mb bytes.Buffer
	_ = png.Encode(&mb, m)
	id, err := Restore(ctx, lib, second, first, 1, mb.Bytes(), 4)
	if err != nil {
		t.Fatal(err)
	}
	it, _ := lib.Get(ctx, id)
	img, err := imageio.DecodeFile(lib.Path(it))
	if err != nil {
		t.Fatal(err)
	}
	at := func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
	if got := at(4, 30); got != red {
		t.Errorf("inside the painted area, far from the seam: %v, want turn 1's %v", got, red)
	}
	for x := side / 2; x < side; x++ {
		if got := at(x, 30); got != blue {
			t.Fatalf("outside the painted area at x=%d: %v, want the current %v exactly", x, got, blue)
		}
	}
	turns, _ := lib.Lineage().Thread(ctx, id)
	if len(turns) != 3 || turns[2].Item != id || turns[2].Parent != second.ID || turns[2].Way != library.WayRestored || it.Kind != library.KindRestored {
		t.Errorf("the restored turn: %+v (%s)", turns, it.Kind)
	}
}
