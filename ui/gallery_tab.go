package ui

import (
	"context"
	"fmt"
	"image"
	"os"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/library"
)

// galleryPage is how many items the grid holds at once, newest first.
const galleryPage = 1000

// thumbCacheSize bounds the decoded thumbnails kept in memory: each is at
// most 256×256 pixels (256 KB), so the cache stays under 32 MB however far
// the grid is scrolled, and still holds several screens.
const thumbCacheSize = 120

// galleryTab is the Gallery tab: every image ever made as a virtualised
// grid of thumbnails, a search by prompt, and the opened item's details.
type galleryTab struct {
	app       *App
	search    *widget.Entry
	favorites *widget.Check
	count     *widget.Label
	grid      *widget.GridWrap
	empty     *fyne.Container
	details   *fyne.Container

	// items is the current page; cache and load are the decoded thumbnails
	// and the loads under way. Loads hop back through the bridge, which the
	// real driver runs on the UI goroutine but Fyne's test driver runs on
	// the calling goroutine, so mu guards cache and load.
	items []library.Item
	mu    sync.Mutex
	cache map[int64]thumb
	load  map[int64]bool
	// bound maps each grid cell to the item it shows now, so a load for
	// an item that has scrolled away is dropped before it decodes.
	bound map[fyne.CanvasObject]int64
	// loaders bounds how many thumbnails decode at once.
	loaders chan struct{}
}

func (t *galleryTab) buildUI() fyne.CanvasObject {
	t.cache, t.load, t.bound = map[int64]thumb{}, map[int64]bool{}, map[fyne.CanvasObject]int64{}
	t.loaders = make(chan struct{}, 4)
	t.search = &widget.Entry{PlaceHolder: "Search prompts", OnChanged: func(string) { t.reload() }}
	t.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	t.favorites = widget.NewCheck("Favourites only", func(bool) { t.reload() })
	t.count = widget.NewLabel("")
	toolbar := container.NewBorder(nil, nil, nil, container.NewHBox(t.favorites, t.count), t.search)

	t.grid = widget.NewGridWrap(func() int { return len(t.items) }, t.newCell, t.updateCell)
	t.grid.OnSelected = t.open
	// Not wrapped: a wrapping label in a Center is as narrow as its
	// longest word, and as tall as that makes it, which grew the window.
	emptyHint := hintLabel("Images you make appear here, newest first.")
	emptyHint.Wrapping = fyne.TextWrapOff
	t.empty = container.NewCenter(emptyHint)
	gridArea := container.NewStack(t.grid, t.empty)

	t.details = container.NewVBox(
		widget.NewLabelWithStyle("Details", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		hintLabel("Open an image to see it with its prompt and settings, copy the prompt, mark it as a favourite or delete it."),
	)
	split := container.NewHSplit(gridArea, container.NewVScroll(container.NewPadded(t.details)))
	split.Offset = 0.68
	t.reload()
	return container.NewBorder(toolbar, nil, nil, nil, split)
}

func (t *galleryTab) focusTarget() fyne.Focusable { return t.grid }

func (t *galleryTab) primaryAction() {}

// reload runs the query again and refreshes the grid.
func (t *galleryTab) reload() {
	lib := t.app.svc.lib
	if lib == nil {
		msg := "The gallery could not be opened."
		if t.app.svc.libErr != nil {
			msg += " " + t.app.svc.libErr.Error()
		}
		t.count.SetText(msg)
		return
	}
	q := library.Query{Search: t.search.Text, Favorites: t.favorites.Checked, Limit: galleryPage}
	items, err := lib.List(context.Background(), q)
	if err != nil {
		t.count.SetText("Could not read the gallery: " + err.Error())
		return
	}
	t.items = items
	n, _ := lib.Count(context.Background(), q)
	switch {
	case n == 0 && q.Search == "" && !q.Favorites:
		t.count.SetText("No images yet")
	case n == 1:
		t.count.SetText("1 image")
	default:
		t.count.SetText(fmt.Sprintf("%d images", n))
	}
	if len(items) == 0 {
		t.empty.Show()
	} else {
		t.empty.Hide()
	}
	t.grid.UnselectAll()
	t.grid.Refresh()
}

func (t *galleryTab) newCell() fyne.CanvasObject {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	return container.NewStack(bg, newPicture(fyne.NewSize(library.ThumbSize*0.6, library.ThumbSize*0.6)))
}

// updateCell shows item i's thumbnail: from the cache, or a placeholder
// while it loads in the background. A cell reused for another item before
// its load ends shows the new item; the finished load only fills the cache.
func (t *galleryTab) updateCell(i widget.GridWrapItemID, o fyne.CanvasObject) {
	if i >= len(t.items) {
		return
	}
	it := t.items[i]
	pic := o.(*fyne.Container).Objects[1].(*picture)
	t.mu.Lock()
	t.bound[o] = it.ID
	cached, ok := t.cache[it.ID]
	loading := t.load[it.ID]
	if !ok && !loading {
		t.load[it.ID] = true
	}
	t.mu.Unlock()
	pic.SetImageOpaque(cached.img, cached.opaque)
	if ok || loading {
		return
	}
	lib := t.app.svc.lib
	go func() {
		t.loaders <- struct{}{}
		var th thumb
		if t.stillShown(it.ID) {
			if p, err := lib.Thumbnail(it); err == nil {
				th = newThumb(loadImageFile(p))
			}
		}
		<-t.loaders
		t.app.bridge.Do(func() {
			t.mu.Lock()
			delete(t.load, it.ID)
			if len(t.cache) >= thumbCacheSize {
				t.cache = map[int64]thumb{}
			}
			if th.img != nil {
				t.cache[it.ID] = th
			}
			t.mu.Unlock()
			if i < len(t.items) && t.items[i].ID == it.ID {
				t.grid.RefreshItem(i)
			}
		})
	}()
}

// open shows an item's details beside the grid.
func (t *galleryTab) open(i widget.GridWrapItemID) {
	if i >= len(t.items) {
		return
	}
	lib := t.app.svc.lib
	it, err := lib.Get(context.Background(), t.items[i].ID)
	if err != nil {
		t.count.SetText("Could not open the image: " + err.Error())
		return
	}
	full := newPicture(fyne.NewSize(320, 320))
	full.SetImage(loadImageFile(lib.Path(it)))
	prompt := widget.NewLabel(it.Prompt)
	prompt.Wrapping = fyne.TextWrapWord
	if it.Prompt == "" {
		prompt.SetText("(prompt unknown: this image was recovered after a crash)")
	}
	copyPrompt := &widget.Button{Text: "Copy prompt", Icon: theme.ContentCopyIcon(), OnTapped: func() {
		t.app.fyneApp.Clipboard().SetContent(it.Prompt)
	}}
	fav := widget.NewCheck("Favourite", nil)
	fav.SetChecked(it.Favorite)
	fav.OnChanged = func(on bool) {
		if err := lib.SetFavorite(context.Background(), it.ID, on); err != nil {
			dialog.ShowError(err, t.app.win)
		}
	}
	del := &widget.Button{Text: "Delete…", Icon: theme.DeleteIcon(), Importance: widget.DangerImportance, OnTapped: func() {
		dialog.ShowConfirm("Delete this image?", "It is removed from the gallery and its file is deleted. This cannot be undone.", func(ok bool) {
			if !ok {
				return
			}
			if err := lib.Delete(context.Background(), it.ID); err != nil {
				dialog.ShowError(err, t.app.win)
			}
			t.reload()
			t.details.Objects = t.details.Objects[:2]
			t.details.Refresh()
		}, t.app.win)
	}}
	reuse := &widget.Button{Text: "Reuse settings", Icon: theme.ViewRefreshIcon(), OnTapped: func() { t.app.reuse(it) }}
	toEdit := &widget.Button{Text: "Send to Edit", Icon: theme.DocumentCreateIcon(), OnTapped: func() { t.app.sendToEdit(it) }}
	export := &widget.Button{Text: "Export…", Icon: theme.DocumentSaveIcon(), OnTapped: func() { t.app.export(it) }}
	settings := widget.NewLabel(describe(it))
	settings.Wrapping = fyne.TextWrapWord
	t.details.Objects = []fyne.CanvasObject{
		widget.NewLabelWithStyle("Details", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		full, prompt, container.NewGridWithColumns(2, copyPrompt, reuse, toEdit, export, del), fav, settings,
	}
	t.details.Refresh()
}

// describe lists an item's settings for the details pane.
func describe(it library.Item) string {
	p := it.Params
	lines := []string{
		fmt.Sprintf("%d × %d %s, %s", it.Width, it.Height, strings.ToUpper(it.Format), humanBytes(it.SizeBytes)),
		"Model: " + orDash(it.Model),
		"Size asked: " + orDash(p.Size) + " · Quality: " + orDash(p.Quality) + " · Background: " + orDash(p.Background),
		"Format asked: " + orDash(p.OutputFormat) + compressionText(p.OutputCompression) + " · Moderation: " + orDash(p.Moderation),
		fmt.Sprintf("Images asked: %d · Streamed: %v (%d previews)", max(1, p.N), p.Stream, p.PartialImages),
		fmt.Sprintf("Made %s in %s", it.Created.Format("2 Jan 2006 15:04"), it.Duration.Round(100e6)),
	}
	if it.TotalTokens > 0 {
		lines = append(lines, fmt.Sprintf("Tokens: %d in, %d out", it.InputTokens, it.OutputTokens))
	}
	if p.InputFidelity != "" {
		lines = append(lines, "Input fidelity: "+p.InputFidelity)
	}
	if len(it.Parents) > 0 {
		lines = append(lines, fmt.Sprintf("Edited from gallery images %v", it.Parents))
	}
	if it.Profile != "" {
		lines = append(lines, "Account: "+it.Profile)
	}
	if it.RequestID != "" {
		lines = append(lines, "Request: "+it.RequestID)
	}
	return strings.Join(lines, "\n")
}

func compressionText(c *int) string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf(" at %d%%", *c)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func humanBytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// loadImageFile decodes a small image file (a thumbnail), or returns nil.
func loadImageFile(path string) image.Image {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

// thumb is a decoded thumbnail and whether it is opaque, found once as it
// loads, off the UI goroutine: a cell is bound again each time the grid
// scrolls or refreshes, and looking at every pixel each time was a third
// of the first screen's time.
type thumb struct {
	img    image.Image
	opaque bool
}

func newThumb(img image.Image) thumb {
	return thumb{img: img, opaque: img == nil || isOpaque(img)}
}

// cachedThumbs is how many thumbnails are decoded and held.
func (t *galleryTab) cachedThumbs() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.cache)
}

// stillShown reports whether some cell still shows item id.
func (t *galleryTab) stillShown(id int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, v := range t.bound {
		if v == id {
			return true
		}
	}
	return false
}
