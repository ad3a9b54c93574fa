package gallery

import (
	"context"
	"image"
	"net/url"
	"path/filepath"

	"easel/ui/kit"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/ui/widgets/compare"
	"easel/ui/widgets/picture"
)

// relative is an item of an item's lineage, with its thumbnail.
type relative struct {
	library.Item
	thumb image.Image
}

// family is what an item was made from (parents, in order) and what was
// made from it (children, newest first).
type family struct {
	parents, children []relative
}

// lineageOf reads an item's parents and children, with thumbnails; it
// decodes files, so it runs off the UI goroutine.
func lineageOf(ctx context.Context, lib *library.Library, it library.Item) family {
	var f family
	thumb := func(r library.Item) image.Image {
		img, _ := imageio.DecodeFileFit(lib.Path(r), 2*madeFromSide)
		return img
	}
	for _, id := range it.Parents {
		if p, err := lib.Get(ctx, id); err == nil {
			f.parents = append(f.parents, relative{p, thumb(p)})
		}
	}
	if kids, err := lib.Lineage().Children(ctx, it.ID); err == nil {
		for _, k := range kids {
			f.children = append(f.children, relative{k, thumb(k)})
		}
	}
	return f
}

// showLineage fills box with an item's parents and children, each a
// thumbnail that opens it.
func (p *detailsPane) showLineage(f family) {
	box := p.lineage
	box.Objects = nil
	row := func(title string, rs []relative) {
		if len(rs) == 0 {
			return
		}
		line := container.NewGridWrap(fyne.NewSize(madeFromSide, madeFromSide)) // wraps: no scroll inside the details' scroll
		for _, r := range rs {
			pic := picture.New(fyne.NewSize(madeFromSide, madeFromSide))
			pic.SetImage(r.thumb)
			id := r.ID
			open := &widget.Button{Importance: widget.LowImportance, OnTapped: func() { p.grid.openID(id) }}
			line.Add(container.NewStack(pic, open))
		}
		box.Add(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		box.Add(line)
	}
	row(catalogue.T("Made from (gallery)"), f.parents)
	row(catalogue.T("Made from this"), f.children)
	box.Hidden = len(box.Objects) == 0
	box.Refresh()
}

// compareWith is the file an item is best compared with: a kept edit's
// picture as the user gave it, else an edit's first input as sent, else
// its first parent; "" for none.
func compareWith(lib *library.Library, it library.Item, inputs []inputThumb, f family) string {
	for _, in := range inputs {
		if in.Role == library.RoleOriginal {
			return lib.Inputs().Path(in.StoredInput)
		}
	}
	for _, in := range inputs {
		if in.Role == library.RoleImage && in.Position == 0 {
			return lib.Inputs().Path(in.StoredInput)
		}
	}
	if len(f.parents) > 0 {
		return lib.Path(f.parents[0].Item)
	}
	return ""
}

// compareFiles shows before (a file) against after, with a divider to
// drag, or side by side; the files are decoded off the UI goroutine.
func (p *detailsPane) compareFiles(before, after string) {
	compare.ShowDecoded(p.host.Window(), p.host.Work().Do, catalogue.T("Before and after"), func() (image.Image, image.Image, error) {
		a, errA := imageio.DecodeFileFit(before, detailSide)
		b, errB := imageio.DecodeFileFit(after, detailSide)
		return a, b, firstErr(errA, errB)
	})
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// showInFolder opens the folder that holds path in the file manager.
func showInFolder(path string) {
	u := &url.URL{Scheme: "file", Path: filepath.Dir(path)}
	_ = fyne.CurrentApp().OpenURL(u)
}

// shortTitle is an item's prompt, cut for a title.
func shortTitle(it library.Item) string {
	// On one line: a title label shows its first line only, and the
	// large view's title cut a prompt at its line break (#57).
	if t := kit.Shorten(it.Prompt, 60); t != "" {
		return t
	}
	return catalogue.F("Image %d", it.ID)
}
