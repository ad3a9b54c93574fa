package export

import (
	"context"
	"errors"
	"fmt"
	"image"

	"easel/internal/batch"
	"easel/internal/catalogue"
	"easel/internal/honesty"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/pricing"
)

// ThreadSheet is the contact sheet of the thread item belongs to: each
// turn's picture in the order made, labelled with its place, the turn it
// continued, its cost, what it changed outside the marks and its
// prompt, so the whole iteration is judged and shared as one image. It
// reads the files: call it off the UI goroutine.
func ThreadSheet(ctx context.Context, lib *library.Library, item int64) (*image.NRGBA, error) {
	turns, err := lib.Lineage().Thread(ctx, item)
	if err != nil {
		return nil, err
	}
	if len(turns) == 0 {
		return nil, errors.New(catalogue.T("this picture is in no thread: continue it (an edit of it) to start one"))
	}
	number := library.Numbers(turns)
	cells := make([]batch.SheetCell, 0, len(turns))
	for _, t := range turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		label := fmt.Sprint(t.Number)
		if after := number[t.Parent]; after > 0 {
			label = catalogue.F("%d after %d", t.Number, after)
		}
		if e, ok, _ := lib.Ledger().EntryOf(ctx, t.Item); ok {
			amount, _ := e.Spent()
			label += " · " + pricing.Money{Amount: amount, Currency: e.Currency}.String()
		}
		if t.Drift != nil {
			label += " · " + catalogue.F("%d %% outside", t.DriftPercent())
		}
		cell := batch.SheetCell{Label: label}
		if it, err := lib.Get(ctx, t.Item); err == nil {
			if it.Prompt != "" {
				cell.Label += " · " + it.Prompt
			}
			cell.Image, _ = imageio.DecodeFileFit(lib.Path(it), 512)
		}
		cells = append(cells, cell)
	}
	return batch.Sheet(cells, 256), nil
}

// TurnChanges is where turn t changed the picture it continued
// (honesty.ChangeMap): the service's own result (a kept turn's raw twin,
// its first parent) against that picture, through the mask the edit was
// sent with. Red is a change where the marks protected the picture, blue
// where they let it change. It reads the files: call it off the UI
// goroutine.
func TurnChanges(ctx context.Context, lib *library.Library, t library.Turn) (*image.NRGBA, error) {
	if t.Parent == 0 {
		return nil, errors.New(catalogue.T("the start of a thread continued no picture"))
	}
	before, err := lib.Get(ctx, t.Parent)
	if err != nil {
		return nil, errors.New(catalogue.T("the picture it continued is no longer in the gallery"))
	}
	result, err := lib.Get(ctx, t.Item)
	if err != nil {
		return nil, err
	}
	if result.Kind == "kept" && len(result.Parents) > 0 {
		if raw, err := lib.Get(ctx, result.Parents[0]); err == nil {
			result = raw
		}
	}
	file := func(path string) *imageio.Picture {
		return imageio.PictureFrom(func() ([]byte, error) { return imageio.ReadFile(path) })
	}
	var mask *imageio.Picture
	if ins, err := lib.Inputs().Of(ctx, result.ID); err == nil {
		for _, in := range ins {
			if in.Role == library.RoleMask {
				mask = file(lib.Inputs().Path(in))
			}
		}
	}
	heat, ok := honesty.ChangeMap(file(lib.Path(result)), file(lib.Path(before)), mask)
	if !ok {
		return nil, errors.New(catalogue.T("the two pictures are of shapes that cannot be compared"))
	}
	return heat, nil
}
