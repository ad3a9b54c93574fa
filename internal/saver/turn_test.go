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
