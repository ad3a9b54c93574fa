package edit

import (
	"context"
	"errors"
	"image"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/export"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/pricing"
	"easel/internal/saver"
	"easel/internal/work"
	"easel/ui/dialogs"
	"easel/ui/kit"
	"easel/ui/widgets/compare"
	"easel/ui/widgets/picture"
)

// threadSide is the side of a turn's thumbnail in the thread.
const threadSide = 56

// threadPanel is the thread of Edit's first image, beside the canvas:
// each turn's picture, its place, what it cost and what the service
// changed outside the marks, and its prompt. It owns the turns it read
// and what it drew; it reads the strip (which picture is first) and the
// painter (the area painted) it was given. From any turn the designer
// goes on (its picture becomes the first image: the next edit is a
// branch beside the later turns), takes the painted area back into the
// current picture, or sees where that turn changed.
type threadPanel struct {
	host  Host
	strip *refStrip
	mask  *maskTools
	say   func(string)
	// box holds the rows; intro says what the panel is while the first
	// image is in no thread; sheet saves the thread as a contact sheet.
	box   *fyne.Container
	intro *widget.Label
	sheet *widget.Button
	// item is the first image's gallery item the thread was read for;
	// loads counts the reads asked, and an older one's answer is dropped.
	item  int64
	loads int
	turns []threadTurn
	// below holds the edits and the thread as two tabs; the thread's
	// shows when the first image has one, the edits' when one is sent.
	below         *container.AppTabs
	edits, thread *container.TabItem
}

// tabs puts the edits (jobs) and the thread in the tabs the panel
// chooses between.
func (p *threadPanel) tabs(jobs fyne.CanvasObject) *container.AppTabs {
	p.edits = container.NewTabItem(catalogue.T("Edits"), jobs)
	p.thread = container.NewTabItem(catalogue.T("Thread"), container.NewVScroll(p.box))
	p.below = container.NewAppTabs(p.edits, p.thread)
	return p.below
}

// showEdits shows the edits' tab: one was sent.
func (p *threadPanel) showEdits() {
	if p.below != nil {
		p.below.Select(p.edits)
	}
}

// threadTurn is one turn as the panel shows it.
type threadTurn struct {
	library.Turn
	item  library.Item
	thumb image.Image
	cost  string
}

func newThreadPanel(h Host, strip *refStrip, mask *maskTools, say func(string)) *threadPanel {
	p := &threadPanel{host: h, strip: strip, mask: mask, say: say}
	p.sheet = &widget.Button{Text: catalogue.T("Save contact sheet…"), Icon: theme.DocumentSaveIcon(), Importance: widget.LowImportance, OnTapped: p.saveSheet}
	p.intro = kit.HintLabel(catalogue.T("An edit of a gallery picture is the next turn of its thread. Its turns show here: go on from any of them (a branch beside the later turns), paint over an area and take it back from one, or see where one changed."))
	p.box = container.NewVBox(p.intro)
	return p
}

// follow reads the thread of the first image again when it changed, or
// when again is set (a turn was added).
func (p *threadPanel) follow(again bool) {
	var item int64
	if len(p.strip.inputs) > 0 {
		item = p.strip.inputs[0].Item
	}
	if item == p.item && !again {
		return
	}
	p.item = item
	p.loads++
	n, lib := p.loads, p.host.Library()
	if item == 0 || lib == nil {
		p.draw(nil)
		return
	}
	work.Load(p.host.Work(), func(ctx context.Context) ([]threadTurn, error) { return readThread(ctx, lib, item), nil }, func(turns []threadTurn, _ error) {
		if n == p.loads {
			p.draw(turns)
		}
	})
}

// readThread is item's thread with each turn's picture, thumbnail and
// cost, off the UI goroutine.
func readThread(ctx context.Context, lib *library.Library, item int64) []threadTurn {
	turns, err := lib.Lineage().Thread(ctx, item)
	if err != nil {
		return nil
	}
	out := make([]threadTurn, 0, len(turns))
	for _, t := range turns {
		tt := threadTurn{Turn: t}
		if it, err := lib.Get(ctx, t.Item); err == nil {
			tt.item = it
			if path, err := lib.Thumbnails().Thumbnail(it); err == nil {
				tt.thumb, _ = imageio.DecodeFileFit(path, 2*threadSide)
			}
		}
		if e, ok, _ := lib.Ledger().EntryOf(ctx, t.Item); ok {
			amount, _ := e.Spent()
			tt.cost = pricing.Money{Amount: amount, Currency: e.Currency}.String()
		}
		out = append(out, tt)
	}
	return out
}

// draw shows turns, the first image's own marked.
func (p *threadPanel) draw(turns []threadTurn) {
	p.turns = turns
	p.box.Objects = []fyne.CanvasObject{p.intro, container.NewHBox(layout.NewSpacer(), p.sheet)}
	p.intro.Hidden = len(turns) > 0
	p.sheet.Hidden = len(turns) < 2
	number := map[int64]int{}
	for _, t := range turns {
		number[t.Item] = t.Number
	}
	for _, t := range turns {
		p.box.Add(p.row(t, number[t.Parent]))
	}
	p.box.Refresh()
	if p.below == nil {
		return
	}
	p.thread.Text = catalogue.T("Thread")
	if len(turns) > 0 {
		p.thread.Text = catalogue.N("Thread (%d)", len(turns), len(turns))
	}
	if len(turns) > 1 {
		p.below.Select(p.thread)
	}
	p.below.Refresh()
}

// row is one turn, compact enough for several in the tab: its
// thumbnail; its place and cost; what it changed outside the marks, a
// link to where; its prompt; going on from it and taking an area back.
func (p *threadPanel) row(t threadTurn, after int) fyne.CanvasObject {
	pic := picture.New(fyne.NewSize(threadSide, threadSide))
	pic.SetImage(t.thumb)
	title := catalogue.F("Turn %d", t.Number)
	if after > 0 {
		title += " " + catalogue.F("(after %d)", after)
	}
	if t.Item == p.item {
		title += " · " + catalogue.T("in Edit now")
	}
	if figures := turnFigures(t); figures != "" {
		title += " · " + figures
	}
	head := &widget.Label{Text: title, Wrapping: fyne.TextWrapWord, TextStyle: fyne.TextStyle{Bold: t.Item == p.item}}
	if prefs := p.host.Service().File(); prefs.Strayed(t.Drift) {
		// Flagged: it strayed further than the designer allows (Settings).
		head.Text += " · " + catalogue.F("over your %d %% limit", int(prefs.TurnLimit()*100+0.5))
		head.Importance = widget.WarningImportance
	}
	prompt := &widget.Label{Text: t.item.Prompt, Truncation: fyne.TextTruncateEllipsis, SizeName: theme.SizeNameCaptionText}
	lines := container.New(layout.NewCustomPaddedVBoxLayout(0), head)
	turn := t
	if t.Parent != 0 && t.Way != library.WayRestored {
		// The figure is the way to where it is.
		words := catalogue.T("Where it changed")
		if t.Drift != nil {
			words = catalogue.F("%d %% changed outside the marks", t.DriftPercent())
		}
		// Wrapped: at the panel's narrowest the figure's words are wider
		// than it, and would widen the column past the panel's edge.
		lines.Add(&widget.Hyperlink{Text: words, Wrapping: fyne.TextWrapWord, OnTapped: func() { p.showChanges(turn) }})
	}
	lines.Add(prompt)
	if t.Item != p.item {
		lines.Add(container.New(layout.NewRowWrapLayout(),
			&widget.Button{Text: catalogue.T("Go on"), Icon: theme.NavigateBackIcon(), Importance: widget.LowImportance,
				OnTapped: func() { p.goOn(turn.item) }},
			&widget.Button{Text: catalogue.T("Take area back"), Icon: theme.ContentUndoIcon(), Importance: widget.LowImportance,
				OnTapped: func() { p.restore(turn) }},
			&widget.Button{Text: catalogue.T("Compare"), Icon: theme.ViewRestoreIcon(), Importance: widget.LowImportance,
				OnTapped: func() { p.compare(turn) }}))
	}
	return container.NewBorder(nil, widget.NewSeparator(), container.NewVBox(pic), nil, lines)
}

// turnFigures is a turn's cost and how it was made, in a line.
func turnFigures(t threadTurn) string {
	var parts []string
	if t.cost != "" {
		parts = append(parts, t.cost)
	}
	switch t.Way {
	case library.WayRestored:
		parts = append(parts, t.Note)
	}
	// How a turn went is on its card and in `easel thread`; the panel's
	// title stays one line, and says only why a turn could not go in the
	// service's conversation, which the designer should know here.
	if t.Note != "" && t.Way == library.WayImages {
		parts = append(parts, t.Note)
	}
	return strings.Join(parts, " · ")
}

// restore takes the area painted over the first image back from turn t
// (saver.Restore), and goes on from the picture it made.
func (p *threadPanel) restore(t threadTurn) {
	mask, err := p.mask.maskPNG()
	if err != nil || mask == nil {
		p.say(catalogue.F("Paint over the area to take back from turn %d first, then choose Take area back.", t.Number))
		return
	}
	var current library.Item
	for _, c := range p.turns {
		if c.Item == p.item {
			current = c.item
		}
	}
	lib := p.host.Library()
	if current.ID == 0 || lib == nil {
		return
	}
	work.Load(p.host.Work(), func(ctx context.Context) (int64, error) {
		return saver.Restore(ctx, lib, current, t.item, t.Number, mask.Data, saver.RestoreFeather)
	}, func(id int64, err error) {
		if err != nil && id == 0 {
			p.say(catalogue.F("The area could not be taken back: %v", err))
			return
		}
		p.host.GalleryChanged()
		p.say(catalogue.F("The painted area is back from turn %d, in a new picture: the next turn of the thread, made here and not charged.", t.Number))
		if it, err := lib.Get(p.host.Work().Context(), id); err == nil {
			p.goOn(it)
		}
	})
}

// goOn makes it (a turn's picture) Edit's first image, the other
// references staying: the next edit continues it, a branch when later
// turns continued it already. Its file is read off the UI goroutine.
func (p *threadPanel) goOn(it library.Item) {
	lib := p.host.Library()
	if lib == nil {
		return
	}
	path := lib.Path(it)
	work.Load(p.host.Work(), func(context.Context) (Input, error) {
		data, err := imageio.ReadFile(path)
		return NewInput(dialogs.ExportName(it, it.Format), "image/"+it.Format, data, it.ID, nil), err // named by its prompt
	}, func(in Input, err error) {
		if err != nil {
			p.say(catalogue.F("The turn's picture could not be read: %v", err))
			return
		}
		p.strip.setFirst(in)
	})
}

// showChanges shows where turn t changed the picture it continued.
func (p *threadPanel) showChanges(t threadTurn) {
	lib := p.host.Library()
	if lib == nil {
		return
	}
	work.Load(p.host.Work(), func(ctx context.Context) (*image.NRGBA, error) { return export.TurnChanges(ctx, lib, t.Turn) }, func(heat *image.NRGBA, err error) {
		if err != nil {
			p.say(catalogue.F("Where turn %d changed could not be shown: %v", t.Number, err))
			return
		}
		showChangeMap(p.host.Window(), t, heat)
	})
}

// showChangeMap shows where turn t changed, large, with its figure and
// what the colours mean.
func showChangeMap(w fyne.Window, t threadTurn, heat *image.NRGBA) {
	size := w.Canvas().Size()
	pic := picture.New(fyne.NewSize(size.Width*0.6, size.Height*0.6))
	pic.SetImage(heat)
	words := catalogue.T("Red: changed where your marks protected the picture. Blue: changed where you let it change. Grey: as it was.")
	if t.Drift != nil {
		words = catalogue.F("The service changed %d %% of the picture outside your marks.", t.DriftPercent()) + " " + words
	}
	legend := kit.HintLabel(words)
	d := dialog.NewCustom(catalogue.F("Where turn %d changed", t.Number), catalogue.T("Close"), container.NewBorder(nil, legend, nil, nil, pic), w)
	d.Resize(fyne.NewSize(size.Width*0.7, size.Height*0.8))
	d.Show()
}

// saveSheet asks where to write the thread's contact sheet, as a PNG.
func (p *threadPanel) saveSheet() {
	lib, item := p.host.Library(), p.item
	if lib == nil || item == 0 {
		return
	}
	work.Load(p.host.Work(), func(ctx context.Context) ([]byte, error) {
		img, err := export.ThreadSheet(ctx, lib, item)
		if err != nil {
			return nil, err
		}
		return imageio.EncodePNG(img)
	}, func(data []byte, err error) {
		if err != nil {
			p.say(catalogue.F("The contact sheet could not be made: %v", err))
			return
		}
		dialogs.SaveFile(p.host, catalogue.T("Save contact sheet"), "easel-thread-sheet.png", catalogue.T("contact sheet"), data)
	})
}

// compare shows turn t beside the turn in Edit now, large, Before and
// After: any two turns, the designer going on from one of them first.
func (p *threadPanel) compare(t threadTurn) {
	var current threadTurn
	for _, c := range p.turns {
		if c.Item == p.item {
			current = c
		}
	}
	lib := p.host.Library()
	if current.Item == 0 || lib == nil {
		return
	}
	before, after := t, current
	if before.Number > after.Number {
		before, after = after, before
	}
	title := catalogue.F("Turn %d and turn %d", before.Number, after.Number)
	compare.ShowDecoded(p.host.Window(), p.host.Work().Do, title, func() (image.Image, image.Image, error) {
		a, errA := imageio.DecodeFileFit(lib.Path(before.item), compareSide)
		b, errB := imageio.DecodeFileFit(lib.Path(after.item), compareSide)
		return a, b, errors.Join(errA, errB)
	})
}

// compareSide is the longest side two turns are compared at.
const compareSide = 1600
