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
	"easel/ui/widgets/thumbgrid"
)

// selectionVerbs are what the selection bar and the grid's keys do to
// every selected item at once: favourite, send to Edit, compare, export,
// delete (with Undo).
type selectionVerbs struct{ *Room }

// batchBar is what can be done to the selection: it shows while more
// than one item is selected.
type batchBar struct {
	t       *Room
	box     *fyne.Container
	count   *widget.Label
	compare *widget.Button
}

func newBatchBar(t *Room) *batchBar {
	b := &batchBar{t: t, count: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	export := &widget.Button{Text: catalogue.T("Export… (Ctrl+E)"), Icon: theme.DocumentSaveIcon(), OnTapped: selectionVerbs{t}.exportSelection}
	fav := &widget.Button{Text: catalogue.T("Favourite (F)"), Icon: theme.ConfirmIcon(), OnTapped: selectionVerbs{t}.favouriteSelection}
	toEdit := &widget.Button{Text: catalogue.T("Send to Edit"), Icon: theme.DocumentCreateIcon(), OnTapped: selectionVerbs{t}.selectionToEdit}
	del := &widget.Button{Text: catalogue.T("Delete…"), Icon: theme.DeleteIcon(), Importance: widget.DangerImportance, OnTapped: selectionVerbs{t}.deleteSelection}
	b.compare = &widget.Button{Text: catalogue.T("Compare"), Icon: theme.ViewRestoreIcon(), OnTapped: selectionVerbs{t}.compareSelection}
	clear := &widget.Button{Text: catalogue.T("Clear (Esc)"), Icon: theme.CancelIcon(), Importance: widget.LowImportance, OnTapped: func() {
		t.grid.Selection().Clear()
		t.grid.Refresh()
		b.sync()
	}}
	b.box = container.NewVBox(container.NewHScroll(container.NewHBox(b.count, export, fav, toEdit, b.compare, del, clear)))
	b.box.Hide()
	return b
}

// sync shows the bar while more than one item is selected.
func (b *batchBar) sync() {
	n := b.t.grid.Selection().Len()
	b.count.SetText(catalogue.F("%d selected", n))
	b.box.Hidden = n < 2
	// Two sets of verbs are on screen with a multi-selection: say which
	// acts on what.
	b.t.scope.SetText(catalogue.F("These buttons act on this image only; the bar under the grid acts on all %d selected.", n))
	b.t.scope.Hidden = n < 2
	b.t.scope.Refresh()
	b.compare.Hidden = n != 2
	b.box.Refresh()
}

// onKey acts on the keys the grid hands over: F, Delete, Ctrl+E, Ctrl+Z,
// and Ctrl+C, which copies the open image to the clipboard.
func (t selectionVerbs) onKey(key string) {
	switch key {
	case thumbgrid.KeyFavourite:
		t.favouriteSelection()
	case thumbgrid.KeyDelete:
		t.deleteSelection()
	case thumbgrid.KeyExport:
		t.exportSelection()
	case thumbgrid.KeyUndo:
		t.undoDelete() // nothing when nothing was deleted
	case thumbgrid.KeyCopy:
		t.copyOpened()
	}
}

// withSelection reads the selected items, in the order chosen (pages not
// yet loaded are read), off the UI goroutine, and hands them to f.
func (t selectionVerbs) withSelection(f func([]library.Item)) {
	pager := t.pager
	order := t.grid.Selection().Order()
	if pager == nil || len(order) == 0 {
		return
	}
	t.host.Work().Go(func(ctx context.Context) {
		items := make([]library.Item, 0, len(order))
		for _, i := range order {
			it, ok := pager.Item(i)
			if !ok {
				if err := pager.Load(ctx, pager.Page(i)); err != nil {
					t.host.Work().Do(func() { dialog.ShowError(err, t.host.Window()) })
					return
				}
				if it, ok = pager.Item(i); !ok {
					continue
				}
			}
			items = append(items, it)
		}
		t.host.Work().Do(func() {
			if pager == t.pager {
				f(items)
			}
		})
	})
}

// favouriteSelection marks the selected items as favourites, or unmarks
// them when all already are.
func (t selectionVerbs) favouriteSelection() {
	lib := t.host.Library()
	t.withSelection(func(items []library.Item) {
		all := true
		for _, it := range items {
			all = all && it.Favorite
		}
		openedID := t.opened
		t.host.Work().Go(func(ctx context.Context) {
			var opened *library.Item
			for _, it := range items {
				_ = lib.SetFavorite(ctx, it.ID, !all)
				if it.ID == openedID {
					if fresh, err := lib.Get(ctx, it.ID); err == nil {
						opened = &fresh
					}
				}
			}
			t.host.Work().Do(func() {
				text := catalogue.N("%d images marked as favourites", len(items), len(items))
				if all {
					text = catalogue.N("%d images no longer favourites", len(items), len(items))
				}
				t.count.SetText(text)
				if opened != nil && opened.ID == t.opened {
					t.Open(*opened) // its Favourite box follows
				}
			})
		})
	})
}

// selectionToEdit sends the selected items to Edit as ordered inputs, in
// the order they were chosen.
func (t selectionVerbs) selectionToEdit() {
	t.withSelection(func(items []library.Item) {
		for _, it := range items {
			t.actions.SendToEdit(it)
		}
	})
}

// deleteSelection asks, then deletes the selected items.
func (t selectionVerbs) deleteSelection() {
	t.withSelection(func(items []library.Item) {
		if len(items) == 1 {
			details{t.Room}.confirmDelete(items[0])
			return
		}
		d := dialog.NewConfirm(catalogue.F("Delete %d images?", len(items)),
			catalogue.T("They are removed from the gallery, with their files when Easel closes: until then, Undo brings them back."), func(ok bool) {
				if ok {
					t.deleteItems(items)
				}
			}, t.host.Window())
		d.SetConfirmText(catalogue.F("Delete %d images", len(items)))
		d.SetDismissText(catalogue.T("Keep them"))
		d.SetConfirmImportance(widget.DangerImportance)
		d.Show()
	})
}

// deleteItems moves items to the library's trash off the UI goroutine,
// then reloads and offers Undo until Easel closes.
func (t selectionVerbs) deleteItems(items []library.Item) {
	lib := t.host.Library()
	ids := make([]int64, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	t.host.Work().Go(func(ctx context.Context) {
		err := lib.Trash(ctx, ids)
		t.host.Work().Do(func() {
			if err != nil {
				dialog.ShowError(err, t.host.Window())
				return
			}
			t.trashed = ids
			t.undoText.SetText(catalogue.N("Deleted %d images. Undo brings them back until Easel closes.", len(ids), len(ids)))
			t.undoBar.Show()
			for _, id := range ids {
				if id == t.opened {
					details{t.Room}.closeDetails()
				}
			}
			t.Reload()
		})
	})
}

// undoDelete brings back what was last deleted.
func (t selectionVerbs) undoDelete() {
	lib, ids := t.host.Library(), t.trashed
	if len(ids) == 0 {
		return
	}
	t.trashed = nil
	t.undoBar.Hide()
	t.host.Work().Go(func(ctx context.Context) {
		err := lib.Restore(ctx, ids)
		t.host.Work().Do(func() {
			if err != nil {
				dialog.ShowError(err, t.host.Window())
			}
			t.Reload()
			if err == nil && len(ids) > 0 {
				t.OpenID(ids[0]) // back in the details, not a blank pane
			}
		})
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
	t.host.Work().Go(func(ctx context.Context) {
		added, existing := 0, 0
		var problems []string
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
		t.host.Work().Do(func() {
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
func (t selectionVerbs) compareSelection() {
	lib := t.host.Library()
	t.withSelection(func(items []library.Item) {
		if len(items) == 2 {
			details{t.Room}.compare(lib.Path(items[0]), lib.Path(items[1]), items[1])
		}
	})
}

// exportSelection exports the selected items (or the one under the
// cursor) with the batch export dialog.
func (t selectionVerbs) exportSelection() {
	t.withSelection(func(items []library.Item) { t.actions.ExportMany(items) })
}

// copyOpened copies the open image to the clipboard (Ctrl+C).
func (t selectionVerbs) copyOpened() {
	if t.copyImage != nil && !t.copyImage.Disabled() {
		t.copyImage.OnTapped()
	}
}
