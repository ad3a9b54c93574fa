package gallery

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/work"
	"easel/ui/widgets/thumbgrid"
)

// selectionBar is what can be done to every selected item at once,
// from the bar under the grid (shown while more than one is selected)
// and the grid's keys: favourite, send to Edit, compare, export, delete
// with Undo, and Ctrl+C, which copies the image the details show.
type selectionBar struct {
	host    Host
	actions Actions
	grid    *thumbgrid.Grid
	access  gridAccess
	// pager is the gallery's query as the grid shows it.
	pager func() *library.Pager
	pane  *detailsPane

	box     *fyne.Container
	count   *widget.Label
	compare *widget.Button
	// undoBar offers to bring back what was just deleted, trashed.
	undoBar  *fyne.Container
	undoText *widget.Label
	trashed  []int64
}

func newSelectionBar(h Host, a Actions, grid *thumbgrid.Grid, pager func() *library.Pager, pane *detailsPane, access gridAccess) *selectionBar {
	b := &selectionBar{host: h, actions: a, grid: grid, access: access, pager: pager, pane: pane,
		count: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	export := &widget.Button{Text: catalogue.T("Export… (Ctrl+E)"), Icon: theme.DocumentSaveIcon(), OnTapped: b.exportSelection}
	fav := &widget.Button{Text: catalogue.T("Favourite (F)"), Icon: theme.ConfirmIcon(), OnTapped: b.favouriteSelection}
	toEdit := &widget.Button{Text: catalogue.T("Send to Edit"), Icon: theme.DocumentCreateIcon(), OnTapped: b.selectionToEdit}
	del := &widget.Button{Text: catalogue.T("Delete…"), Icon: theme.DeleteIcon(), Importance: widget.DangerImportance, OnTapped: b.deleteSelection}
	b.compare = &widget.Button{Text: catalogue.T("Compare"), Icon: theme.ViewRestoreIcon(), OnTapped: b.compareSelection}
	clear := &widget.Button{Text: catalogue.T("Clear (Esc)"), Icon: theme.CancelIcon(), Importance: widget.LowImportance, OnTapped: func() {
		grid.Selection().Clear()
		grid.Refresh()
		b.sync()
	}}
	b.box = container.NewVBox(container.NewHScroll(container.NewHBox(b.count, export, fav, toEdit, b.compare, del, clear)))
	b.box.Hide()
	b.undoText = widget.NewLabel("")
	undo := &widget.Button{Text: catalogue.T("Undo"), Icon: theme.ContentUndoIcon(), OnTapped: b.undoDelete}
	b.undoBar = container.NewBorder(nil, nil, nil, undo, b.undoText)
	b.undoBar.Hide()
	return b
}

// sync shows the bar while more than one item is selected.
func (b *selectionBar) sync() {
	n := b.grid.Selection().Len()
	b.count.SetText(catalogue.F("%d selected", n))
	b.box.Hidden = n < 2
	// Two sets of verbs are on screen with a multi-selection: say which
	// acts on what.
	b.pane.showScope(n)
	b.compare.Hidden = n != 2
	b.box.Refresh()
}

// onKey acts on the keys the grid hands over: F, Delete, Ctrl+E, Ctrl+Z,
// and Ctrl+C, which copies the open image to the clipboard.
func (b *selectionBar) onKey(key string) {
	switch key {
	case thumbgrid.KeyFavourite:
		b.favouriteSelection()
	case thumbgrid.KeyDelete:
		b.deleteSelection()
	case thumbgrid.KeyExport:
		b.exportSelection()
	case thumbgrid.KeyUndo:
		b.undoDelete() // nothing when nothing was deleted
	case thumbgrid.KeyCopy:
		b.copyOpened()
	}
}

// withSelection reads the selected items, in the order chosen (pages not
// yet loaded are read), off the UI goroutine, and hands them to f.
func (b *selectionBar) withSelection(f func([]library.Item)) {
	pager := b.pager()
	order := b.grid.Selection().Order()
	if pager == nil || len(order) == 0 {
		return
	}
	work.Load(b.host.Work(), func(ctx context.Context) ([]library.Item, error) {
		items := make([]library.Item, 0, len(order))
		for _, i := range order {
			it, ok := pager.Item(i)
			if !ok {
				if err := pager.Load(ctx, pager.Page(i)); err != nil {
					return nil, err
				}
				if it, ok = pager.Item(i); !ok {
					continue
				}
			}
			items = append(items, it)
		}
		return items, nil
	}, func(items []library.Item, err error) {
		switch {
		case err != nil:
			dialog.ShowError(err, b.host.Window())
		case pager == b.pager():
			f(items)
		}
	})
}

// favouriteSelection marks the selected items as favourites, or unmarks
// them when all already are.
func (b *selectionBar) favouriteSelection() {
	lib := b.host.Library()
	b.withSelection(func(items []library.Item) {
		all := true
		for _, it := range items {
			all = all && it.Favorite
		}
		openedID := b.pane.opened
		// The item open in the details, read again: its Favourite box
		// follows.
		work.Load(b.host.Work(), func(ctx context.Context) (*library.Item, error) {
			var opened *library.Item
			for _, it := range items {
				_ = lib.SetFavorite(ctx, it.ID, !all)
				if it.ID == openedID {
					if fresh, err := lib.Get(ctx, it.ID); err == nil {
						opened = &fresh
					}
				}
			}
			return opened, nil
		}, func(opened *library.Item, _ error) {
			text := catalogue.N("%d images marked as favourites", len(items), len(items))
			if all {
				text = catalogue.N("%d images no longer favourites", len(items), len(items))
			}
			b.access.say(text)
			if opened != nil && opened.ID == b.pane.opened {
				b.pane.show(*opened)
			}
		})
	})
}

// selectionToEdit sends the selected items to Edit as ordered inputs, in
// the order they were chosen.
func (b *selectionBar) selectionToEdit() {
	b.withSelection(func(items []library.Item) {
		for _, it := range items {
			b.actions.SendToEdit(it)
		}
	})
}

// deleteSelection asks, then deletes the selected items.
func (b *selectionBar) deleteSelection() {
	b.withSelection(func(items []library.Item) {
		if len(items) == 1 {
			b.pane.confirmDelete(items[0])
			return
		}
		d := dialog.NewConfirm(catalogue.F("Delete %d images?", len(items)),
			catalogue.T("They are removed from the gallery, with their files when Easel closes: until then, Undo brings them back."), func(ok bool) {
				if ok {
					b.deleteItems(items)
				}
			}, b.host.Window())
		d.SetConfirmText(catalogue.F("Delete %d images", len(items)))
		d.SetDismissText(catalogue.T("Keep them"))
		d.SetConfirmImportance(widget.DangerImportance)
		d.Show()
	})
}

// deleteItems moves items to the library's trash off the UI goroutine,
// then reloads and offers Undo until Easel closes.
func (b *selectionBar) deleteItems(items []library.Item) {
	lib := b.host.Library()
	ids := make([]int64, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	work.Run(b.host.Work(), func(ctx context.Context) error { return lib.Trash().Put(ctx, ids) }, func(err error) {
		if err != nil {
			dialog.ShowError(err, b.host.Window())
			return
		}
		b.trashed = ids
		b.undoText.SetText(catalogue.N("Deleted %d images. Undo brings them back until Easel closes.", len(ids), len(ids)))
		b.undoBar.Show()
		for _, id := range ids {
			if id == b.pane.opened {
				b.pane.close()
			}
		}
		b.access.reload()
	})
}

// undoDelete brings back what was last deleted.
func (b *selectionBar) undoDelete() {
	lib, ids := b.host.Library(), b.trashed
	if len(ids) == 0 {
		return
	}
	b.trashed = nil
	b.undoBar.Hide()
	work.Run(b.host.Work(), func(ctx context.Context) error { return lib.Trash().Restore(ctx, ids) }, func(err error) {
		if err != nil {
			dialog.ShowError(err, b.host.Window())
		}
		b.access.reload()
		if err == nil && len(ids) > 0 {
			b.access.openID(ids[0]) // back in the details, not a blank pane
		}
	})
}

// Import adds image files to the gallery (dropped on the Gallery tab,
// or File ▸ Import…), off the UI goroutine: each as an imported item,
// unless the same image is there already.
func (t *Room) Import(paths []string) {
	lib := t.host.Library()
	if lib == nil {
		return
	}
	var problems []string // the load's, read once it is shown
	work.Load(t.host.Work(), func(ctx context.Context) ([2]int, error) {
		added, existing := 0, 0
		for _, p := range paths {
			data, err := readImport(p)
			if err == nil {
				var r library.Imported
				r, err = lib.Import(ctx, p, data)
				if err == nil && r.Existing {
					existing++
				} else if err == nil {
					added++
				}
			}
			if err != nil {
				problems = append(problems, err.Error())
			}
		}
		return [2]int{added, existing}, nil
	}, func(n [2]int, _ error) {
		added, existing := n[0], n[1]
		msg := catalogue.N("Imported %d images", added, added)
		if existing > 0 {
			msg += catalogue.F("; %d already in the gallery", existing)
		}
		t.count.SetText(msg + catalogue.T("."))
		if len(problems) > 0 {
			dialog.ShowError(errors.New(strings.Join(problems, "\n")), t.host.Window()) // one file a line
		}
		t.Reload()
	})
}

// readImport reads a file to import, bounded, or says why not.
func readImport(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, _, err := imageio.ReadInput(f, filepath.Base(path), imageio.MaxReadBytes)
	return data, err
}

// compareSelection compares the two selected items, the first chosen as
// before.
func (b *selectionBar) compareSelection() {
	lib := b.host.Library()
	b.withSelection(func(items []library.Item) {
		if len(items) == 2 {
			b.pane.compareFiles(lib.Path(items[0]), lib.Path(items[1]))
		}
	})
}

// exportSelection exports the selected items (or the one under the
// cursor) with the batch export dialog.
func (b *selectionBar) exportSelection() {
	b.withSelection(func(items []library.Item) { b.actions.ExportMany(items) })
}

// copyOpened copies the open image to the clipboard (Ctrl+C).
func (b *selectionBar) copyOpened() { b.pane.copyPicture() }
