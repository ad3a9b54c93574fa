package gallery

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/colour"
	"easel/internal/imageio"
	"easel/internal/latest"
	"easel/internal/library"
	"easel/internal/work"
	"easel/ui/dialogs"
	"easel/ui/imageclip"
	"easel/ui/kit"
	"easel/ui/promptlib"
	"easel/ui/widgets/dragsource"
	"easel/ui/widgets/picture"
	"easel/ui/widgets/thumbgrid"
)

// detailsPane is the pane beside the grid: the opened item large enough
// to judge, its prompt and settings, what it was made from and what was
// made from it, and what can be done to it. Its widgets are made once;
// show fills them for an item (opening the next image used to rebuild
// sixteen buttons), close empties the pane. What it asks of the grid
// beside it comes in as functions.
type detailsPane struct {
	host    Host
	actions Actions
	grid    gridAccess
	// remove deletes items, with Undo (the selection bar's).
	remove func(items []library.Item)

	box    *fyne.Container
	scroll *container.Scroll
	// scope says, while several items are selected, that the details'
	// buttons act on the one item shown and the bar on all selected.
	scope *widget.Label
	// it is the item shown; opened is its id, 0 while the pane is empty.
	it     library.Item
	opened int64
	// opens are the reads of the item shown: only the newest is shown.
	opens *latest.Loads
	// large is the large view opened last (one is open at a time).
	large *largeView

	full                *picture.Picture
	prompt, settings    *widget.Label
	madeFrom, lineage   *fyne.Container
	fav                 *widget.Check
	compare, copyImage  *widget.Button
	shown, missing, off []fyne.CanvasObject
	where               *widget.Label
}

// gridAccess is what the details pane and the selection bar ask of the
// grid and the query it shows: the item at a place (when its page is
// loaded), the cursor and moving it (the large view's arrows, which the
// details follow), opening an item by id (selecting it), reading the
// query again, and the line above the grid (what went wrong).
type gridAccess struct {
	grid  *thumbgrid.Grid
	count *widget.Label
	query interface {
		item(i int) (library.Item, bool)
		OpenID(id int64)
		Reload()
	}
}

func (g gridAccess) itemAt(i int) (library.Item, bool) { return g.query.item(i) }
func (g gridAccess) cursor() int                       { return g.grid.Selection().Cursor() }
func (g gridAccess) moveTo(i int)                      { g.grid.Select(i) }
func (g gridAccess) openID(id int64)                   { g.query.OpenID(id) }
func (g gridAccess) reload()                           { g.query.Reload() }
func (g gridAccess) say(text string)                   { g.count.SetText(text) }

// newDetailsPane makes the pane, empty; drag is the drag of the image
// shown out of the window.
func newDetailsPane(h Host, a Actions, g gridAccess, drag func(current func() library.Item) func(dragsource.Phase)) *detailsPane {
	p := &detailsPane{host: h, actions: a, grid: g, opens: latest.New(h.Work())}
	p.scope = kit.HintLabel("")
	p.scope.Importance = widget.WarningImportance
	p.scope.Hide()
	p.full = picture.New(fyne.NewSize(320, 320))
	p.prompt, p.settings = widget.NewLabel(""), widget.NewLabel("")
	p.prompt.Wrapping, p.settings.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	p.madeFrom, p.lineage = container.NewVBox(), container.NewVBox()
	p.fav = widget.NewCheck(catalogue.T("Favourite"), nil)
	p.compare = &widget.Button{Text: catalogue.T("Compare…"), Icon: theme.ViewRestoreIcon()}
	p.copyImage = &widget.Button{Text: catalogue.T("Copy image"), Icon: theme.ContentCopyIcon(), OnTapped: p.copyPicture}
	on := func(f func(library.Item)) func() { return func() { f(p.it) } }
	button := func(text string, icon fyne.Resource, f func(library.Item)) *widget.Button {
		return &widget.Button{Text: text, Icon: icon, OnTapped: on(f)}
	}
	copyPrompt := button(catalogue.T("Copy prompt"), theme.ContentCopyIcon(), func(it library.Item) { h.Clipboard().SetContent(it.Prompt) })
	reuse := button(catalogue.T("Reuse settings"), theme.ViewRefreshIcon(), a.Reuse)
	del := button(catalogue.T("Delete…"), theme.DeleteIcon(), p.confirmDelete)
	del.Importance = widget.DangerImportance
	actions := container.NewGridWithColumns(2, copyPrompt, p.copyImage, reuse,
		button(catalogue.T("Edit this"), theme.ColorPaletteIcon(), a.EditThis),
		button(catalogue.T("Send to Edit"), theme.DocumentCreateIcon(), a.SendToEdit),
		button(catalogue.T("Send to Chat"), theme.MailComposeIcon(), a.SendToChat),
		button(catalogue.T("Export…"), theme.DocumentSaveIcon(), a.Export), del,
		button(catalogue.T("View large (Enter)"), theme.ZoomInIcon(), p.viewLarge), p.compare,
		button(catalogue.T("More like this…"), theme.ContentAddIcon(), a.MoreLikeThis),
		button(catalogue.T("Expand canvas…"), theme.ViewFullScreenIcon(), a.ExpandCanvas),
		button(catalogue.T("Make transparent…"), theme.ColorChromaticIcon(), p.makeTransparent),
		button(catalogue.T("Keep prompt…"), theme.StorageIcon(), func(it library.Item) {
			promptlib.Keep(h, it.Prompt, catalogue.F("gallery item %d", it.ID), nil)
		}))
	file := container.NewGridWithColumns(2,
		&widget.Button{Text: catalogue.T("Copy file path"), Icon: theme.ContentCopyIcon(), Importance: widget.LowImportance, OnTapped: on(func(it library.Item) {
			if lib := h.Library(); lib != nil {
				h.Clipboard().SetContent(lib.Path(it))
			}
		})},
		&widget.Button{Text: catalogue.T("Show in folder"), Icon: theme.FolderOpenIcon(), Importance: widget.LowImportance, OnTapped: on(func(it library.Item) {
			if lib := h.Library(); lib != nil {
				showInFolder(lib.Path(it))
			}
		})})
	heading := kit.Heading(catalogue.T("Details"))
	picked := drag(func() library.Item { return p.it })
	p.shown = []fyne.CanvasObject{heading, p.scope, container.NewStack(p.full, dragsource.New(picked)), p.prompt, actions, p.fav, p.madeFrom, p.lineage, p.settings, file}

	// A missing file: no picture, nothing to send or export; say where
	// Easel looked, and offer to locate the file or remove the item.
	p.where = kit.HintLabel("")
	locate := button(catalogue.T("Locate…"), theme.SearchIcon(), p.locate)
	locate.Importance = widget.HighImportance
	remove := button(catalogue.T("Remove from gallery…"), theme.DeleteIcon(), p.confirmDelete)
	p.missing = []fyne.CanvasObject{heading, container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, p.where),
		container.NewGridWithColumns(2, locate, remove), p.prompt,
		container.NewGridWithColumns(2, button(catalogue.T("Copy prompt"), theme.ContentCopyIcon(), func(it library.Item) { h.Clipboard().SetContent(it.Prompt) }),
			button(catalogue.T("Reuse settings"), theme.ViewRefreshIcon(), a.Reuse)),
		p.fav, p.settings}
	p.off = []fyne.CanvasObject{heading,
		kit.HintLabel(catalogue.T("Open an image to see it with its prompt and settings, copy the prompt, mark it as a favourite or delete it."))}
	p.box = container.NewVBox()
	p.scroll = container.NewVScroll(container.NewPadded(p.box))
	p.close()
	return p
}

// close empties the pane.
func (p *detailsPane) close() {
	p.opened, p.it = 0, library.Item{}
	p.opens.Stop()
	p.box.Objects = p.off
	p.box.Refresh()
}

// showScope says, while n > 1 items are selected, that the pane's
// buttons act on the one item shown.
func (p *detailsPane) showScope(n int) {
	p.scope.SetText(catalogue.F("These buttons act on this image only; the bar under the grid acts on all %d selected.", n))
	p.scope.Hidden = n < 2
	p.scope.Refresh()
}

// show fills the pane for it. The picture decodes off the UI goroutine,
// scaled to the pane, with what it was made from and what was made from
// it; they appear when ready, unless another item was shown meanwhile.
func (p *detailsPane) show(it library.Item) {
	lib := p.host.Library()
	if lib == nil {
		return
	}
	p.it, p.opened = it, it.ID
	p.full.SetImageOpaque(nil, true)
	p.settings.SetText(Describe(it))
	p.prompt.SetText(promptText(it))
	for _, box := range []*fyne.Container{p.madeFrom, p.lineage} {
		box.Objects = nil
		box.Hide()
	}
	p.compare.Hide()
	p.copyImage.SetText(catalogue.T("Copy image"))
	p.copyImage.Enable()
	p.fav.OnChanged = nil
	p.fav.SetChecked(it.Favorite)
	p.fav.OnChanged = func(on bool) { p.setFavorite(it, on) }
	p.box.Objects = p.shown
	if it.Missing {
		p.opens.Stop()
		p.where.SetText(catalogue.F("The image file is missing: Easel looked for it at %s. If it was moved or renamed, locate it; its prompt and settings are kept here.", lib.Path(it)))
		p.box.Objects = p.missing
		p.box.Refresh()
		return
	}
	p.box.Refresh()
	type read struct {
		img     image.Image
		opaque  bool
		inputs  []inputThumb
		family  family
		entry   library.Entry
		charged bool
		file    string
		thread  string
	}
	latest.Run(p.opens, func(ctx context.Context) (read, error) {
		var r read
		// The head once: for the lines, and the colours of the picture.
		var space *colour.Space
		head, err := imageio.FileHead(lib.Path(it))
		if err == nil {
			r.file, space = FileLines(it, head), imageio.SpaceOf(head)
		} else {
			head = nil
		}
		// Decoded here only once its thumbnail was made (in a child
		// process, for a new picture): one that could not be drawn is
		// never decoded in the window's process.
		var img image.Image
		if _, err = lib.Thumbnails().Thumbnail(it); err == nil || !isUndrawable(err) {
			img, err = imageio.DecodeFileFitIn(lib.Path(it), detailSide, space, head != nil)
		}
		r.img, r.opaque = img, err == nil && imageio.IsOpaque(img) // a full scan: here, not on the UI goroutine
		r.inputs = madeFromThumbs(ctx, lib, it.ID)
		r.family = lineageOf(ctx, lib, it)
		r.entry, r.charged, _ = lib.Ledger().EntryOf(ctx, it.ID)
		r.thread = ThreadLine(ctx, lib, it.ID)
		return r, err
	}, func(r read, err error) {
		p.settings.SetText(describeRead(it, r.file, r.entry, r.charged, r.thread))
		showMadeFrom(p.madeFrom, r.inputs)
		p.showLineage(r.family)
		// The details grew under the scroll: it must learn their new
		// height, or what is below the thumbnails cannot be reached.
		p.scroll.Refresh()
		if before := compareWith(lib, it, r.inputs, r.family); before != "" && err == nil {
			p.compare.OnTapped = func() { p.compareFiles(before, lib.Path(it)) }
			p.compare.Show()
		}
		if err != nil {
			p.grid.say(catalogue.F("Could not show image %d: %v", it.ID, err))
			if isUndrawable(err) {
				p.settings.SetText(err.Error() + "\n" + p.settings.Text)
			}
			return
		}
		p.full.SetImageOpaque(r.img, r.opaque)
	})
}

// promptText is an item's prompt, or what it is when it has none: only
// a recovered file lost its prompt to a crash; a cut-out never had one.
func promptText(it library.Item) string {
	if it.Prompt != "" {
		return it.Prompt
	}
	switch it.Kind {
	case "imported":
		if it.SourceName != "" {
			return catalogue.F("(imported from “%s”: no prompt)", it.SourceName)
		}
		return catalogue.T("(imported: no prompt)")
	case "cutout":
		return catalogue.T("(a cut-out made in Easel from the image it came from: no prompt of its own)")
	case "recovered":
		return catalogue.T("(prompt unknown: this image was recovered after a crash)")
	}
	return catalogue.T("(no prompt)")
}

// copyPicture puts the picture shown on the system clipboard, to paste
// into another app; the button says when it is there (Ctrl+C in the grid
// presses it).
func (p *detailsPane) copyPicture() {
	lib, b := p.host.Library(), p.copyImage
	if lib == nil || p.opened == 0 || b.Disabled() {
		return
	}
	path, id := lib.Path(p.it), p.opened
	b.Disable()
	work.Run(p.host.Work(), func(context.Context) error {
		data, err := os.ReadFile(path)
		if err == nil {
			err = imageclip.CopyImage(data)
		}
		return err
	}, func(err error) {
		if p.opened != id {
			return // the pane shows another item, its button enabled
		}
		b.Enable()
		if err != nil {
			dialog.ShowError(fmt.Errorf(catalogue.T("The image could not be copied: %w"), err), p.host.Window())
			return
		}
		b.SetText(catalogue.T("Image copied"))
	})
}

// locate asks for the file of a missing item and copies it back into the
// gallery, off the UI goroutine.
func (p *detailsPane) locate(it library.Item) {
	lib := p.host.Library()
	dialogs.PickImage(p.host, catalogue.F("Locate %s", filepath.Base(it.File)), catalogue.T("Use this file"), func(src string) {
		work.Load(p.host.Work(), func(ctx context.Context) (library.Item, error) { return lib.Locate(ctx, it.ID, src) }, func(found library.Item, err error) {
			if err != nil {
				dialog.ShowError(err, p.host.Window())
				return
			}
			p.host.Thumbs().Forget(it.ID)
			p.grid.reload()
			p.show(found)
		})
	})
}

func (p *detailsPane) setFavorite(it library.Item, on bool) {
	lib := p.host.Library()
	work.Run(p.host.Work(), func(ctx context.Context) error { return lib.SetFavorite(ctx, it.ID, on) }, func(err error) {
		if err != nil {
			dialog.ShowError(err, p.host.Window())
		}
	})
}

func (p *detailsPane) confirmDelete(it library.Item) {
	title, text, yes := catalogue.T("Delete this image?"), catalogue.T("It is removed from the gallery, with its file when Easel closes: until then, Undo brings it back."), catalogue.T("Delete image")
	if it.Missing {
		title, text, yes = catalogue.T("Remove this image from the gallery?"), catalogue.T("Its prompt and settings are removed from the gallery (its file is not there). Until Easel closes, Undo brings it back."), catalogue.T("Remove")
	}
	// Keep it is drawn as the default, and is what Enter does (the
	// window's dialog keys take the highlighted, safe answer); Delete
	// is red, one deliberate click away. Drawn the other way round,
	// Enter kept an image the button it pressed said it would delete.
	var d dialog.Dialog
	keep := &widget.Button{Text: catalogue.T("Keep it"), Importance: widget.HighImportance, OnTapped: func() { d.Hide() }}
	del := &widget.Button{Text: yes, Importance: widget.DangerImportance, OnTapped: func() {
		d.Hide()
		p.remove([]library.Item{it})
	}}
	body := widget.NewLabel(text)
	body.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons(title, container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), del, keep), nil, nil, body), p.host.Window())
	d.Resize(fyne.NewSize(460, 180))
	d.Show()
	// Nothing focused: Enter and Esc reach the window's dialog keys,
	// which take Keep it; a focused button would swallow them.
	p.host.Window().Canvas().Unfocus()
}

// isUndrawable reports a picture whose decoding failed in quarantine.
func isUndrawable(err error) bool {
	var u *library.Undrawable
	return errors.As(err, &u)
}
