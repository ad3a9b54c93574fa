// Package gallery is the Gallery tab: every image ever made as a
// virtualised grid of thumbnails, paged from the library as it scrolls
// (the 100,000th image is as near as the first), a search by prompt,
// filters, and the opened item's details with its actions. Every query and every decode runs off
// the UI goroutine; a result that arrives after the user has moved on (a
// search typed further, another image opened) is dropped.
package gallery

import (
	"context"
	"image"
	"strings"

	"easel/ui/widgets/iconbutton"
	"easel/ui/widgets/searchentry"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"easel/internal/c2pa"
	"easel/internal/catalogue"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/thumbs"
	"easel/internal/work"
	"easel/ui/kit"
	"easel/ui/widgets/picture"
	"easel/ui/widgets/swatch"
	"easel/ui/widgets/thumbgrid"
)

// Page is how many items one read of the library brings.
const Page = 200

// detailSide is the longest side of the image the details pane shows:
// sharp in the pane at any window size, without decoding (and uploading
// to the GPU) a 4096-pixel original at full size.
const detailSide = 1600

// Actions are what the gallery asks of the other tabs.
type Actions interface {
	// Reuse fills Text to image with an item's prompt and settings.
	Reuse(it library.Item)
	// SendToEdit adds an item to Edit's reference images.
	SendToEdit(it library.Item)
	// SendToChat attaches an item to the chat message being written.
	SendToChat(it library.Item)
	// EditThis makes an item Edit's first image (the one the mask is
	// painted on), keeping the other inputs: paint, send, refine.
	EditThis(it library.Item)
	// MoreLikeThis asks how many more of an item to make, and how close,
	// and sends them as the item's children.
	MoreLikeThis(it library.Item)
	// ExpandCanvas makes an item Edit's first image and asks how to
	// widen it (outpaint).
	ExpandCanvas(it library.Item)
	// Export asks where and how to export an item.
	Export(it library.Item)
	// ExportMany asks where and how to export items, and exports them
	// with a progress bar.
	ExportMany(items []library.Item)
}

// Room is the Gallery tab.
type Room struct {
	host      Host
	actions   Actions
	search    *searchentry.Entry
	favorites *widget.Check
	filters   *filterBar
	count     *widget.Label
	grid      *thumbgrid.Grid
	empty     *fyne.Container
	// pane shows the item opened; batch acts on the selection; drag
	// carries the selection out of the window.
	pane  *detailsPane
	batch *selectionBar
	drag  *dragOut

	// pager reads the grid's items by place; total is how many match.
	pager *library.Pager
	total int
	// loading are the pages being read for the grid.
	loading map[int]bool
	// query counts the queries sent; an answer to an older one is
	// dropped.
	query int
	// answered is the last query whose answer was shown.
	answered int
	// selected is the item selected in the grid (0: none); quiet is set
	// while the grid's selection is moved to follow it.
	selected int64
	quiet    bool
	cells    *thumbs.Cells[fyne.CanvasObject]
}

// Host is what the Gallery asks of the window, and no more: the library
// and its thumbnails, the UI goroutine, the window for its dialogs (which
// read the connected session), the clipboard. What it does to other tabs
// goes through Actions.
type Host interface {
	Window() fyne.Window
	// Work starts tasks off the UI goroutine on the window's context,
	// which ends when the window closes.
	Work() work.Starter
	Library() *library.Library
	LibraryErr() error
	Thumbs() *thumbs.Service
	Clipboard() fyne.Clipboard
}

// New makes the tab; its widgets are made by Build.
func New(h Host, actions Actions) *Room {
	return &Room{host: h, actions: actions, cells: thumbs.NewCells[fyne.CanvasObject](), loading: map[int]bool{}}
}

// Build implements room.Room.
func (t *Room) Build() fyne.CanvasObject {
	t.search = searchentry.New(catalogue.T("Search prompts and file names"), func(string) { t.Reload() })
	t.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	// Down and Enter go to the results: the arrows and Enter browse them
	// at once.
	t.search.OnLeave = func() { t.host.Window().Canvas().Focus(t.grid) }
	t.favorites = widget.NewCheck(catalogue.T("Favourites only"), func(bool) { t.Reload() })
	t.count = widget.NewLabel("")
	t.filters = newFilterBar(t.Reload)
	top := iconbutton.Low(catalogue.T("Go to the first picture"), theme.MoveUpIcon(), func() { t.grid.ScrollToTop() })
	end := iconbutton.Low(catalogue.T("Go to the last picture"), theme.MoveDownIcon(), func() { t.grid.ScrollToBottom() })
	toolbar := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(t.count, top, end), t.search),
		t.filters.row(t.favorites))

	t.grid = thumbgrid.New(func() int { return t.total }, t.newCell, t.updateCell)
	t.grid.OnChanged = t.selectionChanged
	t.grid.OnOpen = t.openAt
	t.grid.OnType = func(r rune) { t.Find().Begin(r) }
	access := gridAccess{grid: t.grid, count: t.count, query: t}
	pager := func() *library.Pager { return t.pager }
	t.drag = newDragOut(t.host, t.grid, pager)
	t.grid.OnDrag = t.drag.gesture.Follow
	t.pane = newDetailsPane(t.host, t.actions, access, t.drag.of)
	t.batch = newSelectionBar(t.host, t.actions, t.grid, pager, t.pane, access)
	t.pane.remove = t.batch.deleteItems
	t.grid.OnKey = t.batch.onKey
	// Not wrapped: a wrapping label in a Center is as narrow as its
	// longest word, and as tall as that makes it, which grew the window.
	emptyHint := kit.HintLabel(catalogue.T("Images you make appear here, newest first."))
	emptyHint.Wrapping = fyne.TextWrapOff
	t.empty = container.NewCenter(emptyHint)
	gridArea := container.NewBorder(nil, container.NewVBox(t.drag.label, t.batch.box, t.batch.undoBar), nil, nil, container.NewStack(t.grid, t.empty))

	split := container.NewHSplit(gridArea, t.pane.scroll)
	split.Offset = 0.68
	t.Reload()
	return container.NewBorder(toolbar, nil, nil, nil, split)
}

// FocusTarget implements room.Room: the grid, so the arrows and Enter
// browse at once on arriving (Ctrl+4); a letter typed there starts a
// search, and Ctrl+F goes to the search.
func (t *Room) FocusTarget() fyne.Focusable { return t.grid }

// Find is the gallery's search: Ctrl+F goes to it, a letter typed on the
// grid begins one, and tests type into it.
func (t *Room) Find() Finder { return Finder{entry: t.search, canvas: t.host.Window().Canvas} }

// PrimaryAction implements room.Room; the gallery has none.
func (t *Room) PrimaryAction() {}

// ServiceChanged implements room.Room; the gallery does not send.
func (t *Room) ServiceChanged() {}

// Connected implements room.Room.
func (t *Room) Connected() {}

// Items is the grid's first page, as loaded.
func (t *Room) Items() []library.Item {
	var out []library.Item
	for i := 0; i < min(t.total, Page); i++ {
		if it, ok := t.item(i); ok {
			out = append(out, it)
		}
	}
	return out
}

// Total is how many items match the search and filters.
func (t *Room) Total() int { return t.total }

// item is item i of the grid, when its page is loaded.
func (t *Room) item(i int) (library.Item, bool) {
	if t.pager == nil || i < 0 {
		return library.Item{}, false
	}
	return t.pager.Item(i)
}

// Selected is the item selected in the grid, 0 for none.
func (t *Room) Selected() int64 { return t.selected }

// Opened is the item the details pane shows, 0 for none.
func (t *Room) Opened() int64 { return t.pane.opened }

// Reload runs the query again off the UI goroutine and shows its answer,
// unless a newer query was sent meanwhile. The selection stays on the
// item it was on.
func (t *Room) Reload() {
	lib := t.host.Library()
	if lib == nil {
		msg := catalogue.T("The gallery could not be opened.")
		if err := t.host.LibraryErr(); err != nil {
			msg += " " + err.Error()
		}
		t.count.SetText(msg)
		return
	}
	q, problem := t.filters.query()
	if problem != "" {
		t.count.SetText(problem)
		return
	}
	q.Search, q.Favorites = t.search.Text, t.favorites.Checked
	t.query++
	seq := t.query
	pager := lib.NewPager(q, Page)
	filtered := q.Search != "" || q.Favorites || t.filters.active()
	// The count and the first page; the count's failure is the error
	// the load returns, the page's rides in counted.
	work.Load(t.host.Work(), func(ctx context.Context) (counted, error) {
		var c counted
		var cerr error
		c.n, cerr = pager.Count(ctx)
		c.all = c.n
		if cerr == nil && filtered {
			c.all, cerr = lib.Count(ctx, library.Query{})
		}
		if cerr == nil && c.n > 0 {
			c.err = pager.Load(ctx, 0)
		}
		return c, cerr
	}, func(c counted, cerr error) {
		if seq != t.query {
			return // a newer query is on its way
		}
		t.answered = seq
		t.showPage(pager, c.n, c.all, filtered, c.err, cerr)
	})
	t.filters.loadFacets(lib, t.host)
}

// counted is a query's answer: how many items match it (n) and how
// many there are (all), and why its first page could not be read.
type counted struct {
	n, all int
	err    error
}

func (t *Room) showPage(pager *library.Pager, n, all int, filtered bool, err, countErr error) {
	switch {
	case countErr != nil:
		t.count.SetText(catalogue.F("Could not count the images: %v", countErr))
		return
	case err != nil:
		t.count.SetText(catalogue.F("Could not read the gallery: %v", err))
		return
	case all == 0:
		t.count.SetText(catalogue.T("No images yet"))
	case filtered:
		t.count.SetText(catalogue.N("%s of %s images", all, humanize.Comma(int64(n)), humanize.Comma(int64(all))))
	default:
		t.count.SetText(catalogue.N("%s images", n, humanize.Comma(int64(n))))
	}
	t.pager, t.total = pager, n
	t.loading = map[int]bool{}
	t.cells.Reset()
	t.empty.Hidden = n > 0
	t.empty.Refresh()
	// The places show other items now: the selection starts again,
	// and the cursor follows its item when it is in the first page.
	t.grid.Reset()
	t.followSelection()
	t.grid.Refresh()
	t.batch.sync() // the reset selection: no count left from before
	// An item the search or filters now hide leaves the details, so its
	// Delete is not live on something out of sight. (All the answer is
	// in its first page when it is this short; beyond, it may be there.)
	if t.pane.opened != 0 && n <= Page {
		if _, ok := pager.Find(t.pane.opened); !ok {
			t.selected = 0
			t.pane.close()
		}
	}
}

// loadPage reads page n of the grid off the UI goroutine, then draws
// the cells waiting for it.
func (t *Room) loadPage(n int) {
	pager, seq := t.pager, t.query
	if pager == nil || t.loading[n] {
		return
	}
	t.loading[n] = true
	work.Run(t.host.Work(), func(ctx context.Context) error { return pager.Load(ctx, n) }, func(err error) {
		if pager != t.pager || seq != t.query {
			return
		}
		delete(t.loading, n)
		if err != nil {
			t.count.SetText(catalogue.F("Could not read the gallery: %v", err))
			return
		}
		t.followSelection()
		t.grid.Refresh()
	})
}

// followSelection moves the grid's selection to where the selected item
// is in the new page (a new image on top shifts every index), or clears
// it when the item is no longer shown.
func (t *Room) followSelection() {
	if t.selected == 0 {
		return
	}
	t.quiet = true
	defer func() { t.quiet = false }()
	if t.pager != nil {
		if i, ok := t.pager.Find(t.selected); ok {
			if t.grid.Selection().Cursor() != i {
				t.grid.Select(i)
			}
			return
		}
	}
	t.grid.Reset()
	if t.answered == t.query {
		// Not in the page shown, and no newer page is on its way
		// that might hold it.
		t.selected = 0
	}
}

func (t *Room) newCell() fyne.CanvasObject {
	bg := swatch.New(theme.ColorNameInputBackground)
	missing := container.NewCenter(container.NewHBox(widget.NewIcon(theme.WarningIcon()), widget.NewLabel(catalogue.T("File missing"))))
	missing.Hide()
	return container.NewStack(bg, picture.New(fyne.NewSize(library.ThumbSize*0.6, library.ThumbSize*0.6)), missing)
}

// updateCell shows item i's thumbnail: from memory, or nothing while it
// loads in the background. Binding a cell to another item cancels the
// load it waited for, so a fast scroll decodes only what stays in view.
func (t *Room) updateCell(i int, o fyne.CanvasObject) {
	cell := o.(*fyne.Container)
	pic := cell.Objects[1].(*picture.Picture)
	it, ok := t.item(i)
	if !ok {
		// Its page is on its way: an empty cell until then.
		t.cells.Bind(o, 0)
		pic.SetImageOpaque(nil, true)
		cell.Objects[2].(*fyne.Container).Hidden = true
		if t.pager != nil && i < t.total {
			t.loadPage(t.pager.Page(i))
		}
		return
	}
	cell.Objects[2].(*fyne.Container).Hidden = !it.Missing
	svc := t.host.Thumbs()
	if th, ok := svc.Cached(it.ID); ok {
		t.cells.Bind(o, it.ID)
		pic.SetImageOpaque(th.Image, th.Opaque)
		return
	}
	pic.SetImageOpaque(nil, true)
	ctx := t.cells.Bind(o, it.ID)
	svc.Load(ctx, it, func(th thumbs.Thumb) {
		t.host.Work().Do(func() {
			if t.cells.Shows(o, it.ID) {
				pic.SetImageOpaque(th.Image, th.Opaque)
			}
		})
	})
}

// selectionChanged follows the grid: the item under the cursor is shown
// in the details, and the batch bar counts the selection.
func (t *Room) selectionChanged() {
	t.batch.sync()
	t.drag.settle()
	if t.quiet {
		return
	}
	it, ok := t.item(t.grid.Selection().Cursor())
	if !ok || it.ID == t.selected && t.pane.opened == it.ID {
		return
	}
	t.selected = it.ID
	t.Open(it)
}

// openAt opens place i's item large (Enter, a double click).
func (t *Room) openAt(i int) {
	if it, ok := t.item(i); ok {
		t.selected = it.ID
		t.Open(it)
		t.pane.viewLargeAt(it, i)
	}
}

// Open shows an item's details beside the grid.
func (t *Room) Open(it library.Item) { t.pane.show(it) }

// inputThumb is a stored input with its thumbnail, for the details.
type inputThumb struct {
	library.StoredInput
	thumb image.Image
}

// madeFromSide is the side of an input's thumbnail in the details.
const madeFromSide = 56

// madeFromThumbs reads what item id was made from, with thumbnails; it
// decodes files, so it runs off the UI goroutine.
func madeFromThumbs(ctx context.Context, lib *library.Library, id int64) []inputThumb {
	stored, err := lib.Inputs().Of(ctx, id)
	if err != nil {
		return nil
	}
	out := make([]inputThumb, 0, len(stored))
	for _, s := range stored {
		img, _ := imageio.DecodeFileFit(lib.Inputs().Path(s), 2*madeFromSide)
		out = append(out, inputThumb{StoredInput: s, thumb: img})
	}
	return out
}

// showMadeFrom fills box with an edit's inputs, named as the prompt named
// them (1st, 2nd…), and its mask.
func showMadeFrom(box *fyne.Container, inputs []inputThumb) {
	if len(inputs) == 0 {
		return
	}
	// The thumbnails wrap onto lines rather than scroll sideways: a
	// scroll inside the details' scroll took the wheel from it whenever
	// the pointer passed over the row.
	row := container.NewGridWrap(fyne.NewSize(madeFromSide+8, madeFromSide+36))
	for _, in := range inputs {
		pic := picture.New(fyne.NewSize(madeFromSide, madeFromSide))
		pic.SetImage(in.thumb)
		label := kit.Ordinal(in.Position + 1)
		switch in.Role {
		case library.RoleMask:
			label = catalogue.T("mask")
		case library.RoleOriginal:
			label = catalogue.T("your picture")
		}
		caption := widget.NewLabelWithStyle(label, fyne.TextAlignCenter, fyne.TextStyle{})
		caption.Truncation = fyne.TextTruncateEllipsis
		row.Add(container.NewBorder(nil, caption, nil, nil, pic))
	}
	box.Objects = []fyne.CanvasObject{widget.NewLabelWithStyle(catalogue.T("Made from"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), row}
	box.Show()
	box.Refresh()
}

// OpenID shows the details of the item with id, read off the UI
// goroutine, and selects it in the grid when it is there.
func (t *Room) OpenID(id int64) {
	lib := t.host.Library()
	if lib == nil {
		return
	}
	work.Load(t.host.Work(), func(ctx context.Context) (library.Item, error) { return lib.Get(ctx, id) }, func(it library.Item, err error) {
		if err != nil {
			t.count.SetText(catalogue.F("Could not open image %d: %v", id, err))
			return
		}
		t.selected = id
		t.followSelection()
		t.Open(it)
	})
}

// Describe lists an item's settings for the details pane.
func Describe(it library.Item) string {
	p := it.Params
	stream := catalogue.T("No")
	if p.Stream {
		stream = catalogue.N("Yes, %d previews", p.PartialImages, p.PartialImages)
	}
	lines := []string{
		catalogue.F("%d × %d %s, %s", it.Width, it.Height, strings.ToUpper(it.Format), humanize.IBytes(uint64(max(it.SizeBytes, 0)))),
		catalogue.F("Model: %s", orDash(it.Model)),
		catalogue.F("Size asked: %s · Quality: %s · Background: %s", orDash(p.Size), orDash(p.Quality), orDash(p.Background)),
		catalogue.F("Format asked: %s%s · Moderation: %s", orDash(p.OutputFormat), compressionText(p.OutputCompression), orDash(p.Moderation)),
		catalogue.F("Images asked: %d · Streamed: %s", max(1, p.N), stream),
		catalogue.F("Made %s in %s", it.Created.Format(catalogue.T("2 Jan 2006 15:04")), catalogue.Duration(it.Duration)),
	}
	if it.TotalTokens > 0 {
		lines = append(lines, catalogue.F("Tokens: %d in, %d out", it.InputTokens, it.OutputTokens))
	}
	if p.InputFidelity != "" {
		lines = append(lines, catalogue.F("Input fidelity: %s", p.InputFidelity))
	}
	if len(it.Parents) > 0 {
		lines = append(lines, catalogue.F("Edited from gallery images %v", it.Parents))
	}
	for _, said := range it.Honesty.Sentences() {
		// What the service did not do of what was asked, as the job's
		// card said it.
		lines = append(lines, catalogue.F("Service: %s", said))
	}
	if it.Profile != "" {
		lines = append(lines, catalogue.F("Account: %s", it.Profile))
	}
	if it.RequestID != "" {
		lines = append(lines, catalogue.F("Request: %s", it.RequestID))
	}
	return strings.Join(lines, "\n")
}

// describeRead is the details' settings with what was read off the UI
// goroutine: the file's colours and credentials, and the cost when the
// ledger has it.
func describeRead(it library.Item, file string, entry library.Entry, charged bool, thread string) string {
	text := Describe(it)
	if thread != "" {
		text += "\n" + thread
	}
	if file != "" {
		text += "\n" + file
	}
	if charged {
		text += "\n" + CostLine(entry)
	}
	return text
}

// FileLines say what an item's file (head: its first bytes, as far as
// its profile and credentials reach) declares of its colours and
// whether it carries Content Credentials, and what they mean for a
// picture Easel made from another.
func FileLines(it library.Item, head []byte) string {
	credentials := c2pa.Line(head)
	switch {
	case credentials != "":
	case it.Kind == "kept" || it.Kind == "outpaint" || it.Kind == "cutout" || it.Kind == library.KindRestored:
		credentials = catalogue.T("Content Credentials: none; Easel made this picture from another, so that picture's credentials do not apply to it")
	case (it.Kind == "generate" || it.Kind == "edit") && it.Format == "png" && strings.HasPrefix(it.Model, "gpt-image"):
		credentials = catalogue.T("Content Credentials: none, though OpenAI signs what its gpt-image models make: the route this came by may have re-encoded it")
	default:
		credentials = catalogue.T("Content Credentials: none")
	}
	return imageio.ColoursLine(head) + "\n" + credentials
}

// CostLine says what the request that made an item cost, from its
// ledger entry: the whole request, and the item's share when it was one
// of several.
func CostLine(e library.Entry) string {
	amount, estimated := e.Spent()
	if e.Cost == nil && e.EstimateHigh == nil && e.Corrected == nil {
		return catalogue.F("Cost: no price set for %s", e.Model)
	}
	m := pricing.Money{Amount: amount, Currency: e.Currency}
	line := catalogue.F("Cost: %s", m)
	if estimated {
		line = catalogue.F("Cost: ≈ %s (estimated: the service reported no usage)", m)
	}
	if e.Corrected != nil {
		line = catalogue.F("Cost: %s (as you corrected it; Easel had written %s)", m, pricing.Money{Amount: e.Written(), Currency: e.Currency})
	}
	if e.Images > 1 {
		line += catalogue.F(" for the request's %d images, %s each", e.Images, pricing.Money{Amount: amount / float64(e.Images), Currency: e.Currency})
	}
	return line
}

func compressionText(c *int) string {
	if c == nil {
		return ""
	}
	return catalogue.F(" at quality %d", *c)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// Grid is the thumbnail grid.
func (t *Room) Grid() *thumbgrid.Grid { return t.grid }

// Answered reports whether the last query sent has been answered.
func (t *Room) Answered() bool { return t.answered == t.query }

// Shown is the image the details pane shows, nil while it decodes.
func (t *Room) Shown() image.Image { return t.pane.full.Image() }

// VisibleRange is the first and last place of the grid on screen.
func (t *Room) VisibleRange() (first, last int) {
	cols := max(1, t.grid.ColumnCount())
	cell := t.newCell().MinSize().Height + theme.Padding()
	if cell <= 0 {
		return 0, 0
	}
	top := int(t.grid.GetScrollOffset() / cell)
	rows := int(t.grid.Size().Height/cell) + 1
	return top * cols, min(t.total, (top+rows)*cols) - 1
}

// ItemAt is item i of the grid, when its page is loaded.
func (t *Room) ItemAt(i int) (library.Item, bool) { return t.item(i) }

// SetKindFilter chooses a kind in the filters ("Edited", "All kinds").
func (t *Room) SetKindFilter(label string) { t.filters.kind.SetSelected(label) }

// DetailsText is every label's text in the details pane, for tests.
func (t *Room) DetailsText() string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	for _, o := range t.pane.box.Objects {
		walk(o)
	}
	return strings.Join(out, "\n")
}

// ThreadLine says where a picture stands in its thread: its turn, the
// turn it continued, how many there are and what it changed outside the
// marks; "" for a picture in none.
func ThreadLine(ctx context.Context, lib *library.Library, item int64) string {
	turns, err := lib.Lineage().Thread(ctx, item)
	if err != nil || len(turns) == 0 {
		return ""
	}
	number := library.Numbers(turns)
	for _, t := range turns {
		if t.Item != item {
			continue
		}
		line := catalogue.F("Thread: turn %d of %d", t.Number, len(turns))
		if after := number[t.Parent]; after > 0 {
			line += " " + catalogue.F("(after %d)", after)
		}
		if t.Drift != nil {
			line += " · " + catalogue.F("the service changed %d %% of the picture outside your marks", t.DriftPercent())
		}
		if way := t.WaySaid(); way != "" {
			line += " · " + way
		}
		return line + " " + catalogue.T("(Edit shows the thread beside the canvas)")
	}
	return ""
}
