package saver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/library"
)

// RestoreFeather is how many pixels a restored area's seam blends over,
// as the unmasked area's does by default, in the window and the command
// line alike.
const RestoreFeather = 8

// Restore takes the area a designer painted back from an earlier turn of
// a thread: the picture of current with, where mask marks what may
// change (its transparent pixels, as an edit's mask), the pixels of
// source, blended over feather pixels into the painted area as a kept
// edit's seam is, and exact everywhere else. Nothing is sent and nothing
// is charged; the picture is kept in the gallery as the turn after
// current (way library.WayRestored), made from both. A source of another
// size is scaled to current's, where their shapes agree.
func Restore(ctx context.Context, lib *library.Library, current, source library.Item, sourceTurn int, mask []byte, feather int) (int64, error) {
	cur, err := imageio.DecodeFile(lib.Path(current))
	if err != nil {
		return 0, fmt.Errorf(catalogue.T("the picture to restore into could not be read: %w"), err)
	}
	src, err := imageio.DecodeFile(lib.Path(source))
	if err != nil {
		return 0, fmt.Errorf(catalogue.T("the turn to restore from could not be read: %w"), err)
	}
	m, err := imageio.DecodeForScreen(mask)
	if err != nil || m.Bounds().Size() != cur.Bounds().Size() {
		return 0, errors.New(catalogue.T("the painted area is not the picture's size: paint it again"))
	}
	// Composite keeps its original where keep is 255: here the current
	// picture outside the painted area, the source's pixels inside it.
	out, err := imageio.Composite(src, cur, imageio.KeepAlpha(m), feather)
	if err != nil {
		return 0, err
	}
	data, err := imageio.EncodePNG(out)
	if err != nil {
		return 0, err
	}
	b := out.Bounds()
	note := catalogue.F("the painted area taken back from turn %d", sourceTurn)
	id, err := lib.Add(ctx, library.NewItem{Image: api.Image{Data: data, Format: "png", Width: b.Dx(), Height: b.Dy()},
		Kind: library.KindRestored, Prompt: current.Prompt, Model: current.Model, Profile: current.Profile,
		Created: time.Now(), Parents: []int64{current.ID, source.ID}, Picture: out})
	if err != nil {
		return 0, err
	}
	return id, lib.Lineage().AddTurn(ctx, library.Turn{Item: id, Parent: current.ID, Way: library.WayRestored, Note: note})
}
