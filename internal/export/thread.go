package export

import (
	"context"
	"errors"
	"fmt"
	"image"

	"easel/internal/batch"
	"easel/internal/catalogue"
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
	number := map[int64]int{}
	for _, t := range turns {
		number[t.Item] = t.Number
	}
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
			label += " · " + catalogue.F("%d %% outside", int(*t.Drift*100+0.5))
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
