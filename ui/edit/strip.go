package edit

import (
	"image"
	"strings"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/ui/kit"
	"easel/ui/widgets/picture"
	"easel/ui/widgets/reorder"
	"easel/ui/widgets/row"
	"easel/ui/widgets/swatch"
)

// refStrip is Edit's reference images, in order, and the row of numbered
// tiles above the canvas that shows them. It owns the inputs and what it
// drew: a tile per input, kept from one redraw to the next and only
// renumbered, so adding an image builds one tile (building sixteen at
// once took longer than a frame: each has three icon buttons and two
// truncated labels); the landing mark of a dragged grip; which grip
// takes the keys after a redraw. The Room is told when the inputs
// change (its painter shows the first).
type refStrip struct {
	inputs []Input
	// list is a row.Row: a change lays it out again without refreshing
	// every tile's labels.
	list   *row.Row
	scroll *container.Scroll
	// view stacks the frame, the drop hint and the scroll; hint shows
	// while there is no input; count says beside it how many are sent.
	view  *fyne.Container
	hint  *fyne.Container
	count *widget.Label
	tiles []*refTile
	// refocus is the place whose grip takes the keys after a redraw.
	refocus int
	// board is the strip's large form, shown while open.
	board *refBoard
	// changed and say are the Room's: the inputs changed; a sentence
	// for its status line.
	changed func()
	say     func(string)
}

// refTile is one input's tile and the widgets its place changes.
type refTile struct {
	key         inputKey
	obj         fyne.CanvasObject
	title, info *widget.Label
	left, right *iconbutton.Button
	frame, mark *swatch.Swatch
	grip        *reorder.Handle
	// at is the tile's place now, read by its buttons and grip.
	at int
}

func newRefStrip(changed func(), say func(string)) *refStrip {
	s := &refStrip{refocus: -1, changed: changed, say: say}
	hint := widget.NewLabelWithStyle(catalogue.T("Drop images anywhere on the window, add them, or send them from the Gallery. Their order matters: the prompt can say “the first”, “the second”."),
		fyne.TextAlignCenter, fyne.TextStyle{})
	// It wraps to the strip's width rather than setting it.
	hint.Wrapping = fyne.TextWrapWord
	border := swatch.New(theme.ColorNameInputBackground)
	border.Stroke, border.StrokeWidth = theme.ColorNamePrimary, 2
	border.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	s.list = row.New()
	s.hint = container.NewVBox(layout.NewSpacer(), hint, layout.NewSpacer())
	s.scroll = container.NewHScroll(s.list)
	s.view = container.NewStack(border, s.hint, s.scroll)
	// How many images go, where the strip's tiles may scroll out of
	// sight: what is sent is never a guess.
	s.count = &widget.Label{Alignment: fyne.TextAlignCenter}
	return s
}

// firstSize is the first input's size in pixels, false without one.
func (s *refStrip) firstSize() (image.Point, bool) {
	if len(s.inputs) == 0 || s.inputs[0].Width == 0 {
		return image.Point{}, false
	}
	return image.Pt(s.inputs[0].Width, s.inputs[0].Height), true
}

// update shows the inputs and tells the Room they changed.
func (s *refStrip) update() {
	s.show(s.inputs)
	if s.board != nil {
		s.board.sync()
	}
	s.changed()
}

// add appends reference images, leaving the scroll be; an image from
// the gallery that is there already is said, not added twice.
func (s *refStrip) add(in ...Input) {
	var already []string
	for _, n := range in {
		if i := s.indexOf(n); i >= 0 {
			already = append(already, catalogue.F("%s is already the %s input", n.Image.Name, kit.Ordinal(i+1)))
			continue
		}
		s.inputs = append(s.inputs, n)
	}
	s.update()
	if len(already) > 0 {
		s.say(strings.Join(already, "; ") + ".")
	}
}

// indexOf is where the gallery item in comes from already is among the
// inputs, or -1 (files are taken as given: two of the same bytes may be
// meant as two references).
func (s *refStrip) indexOf(in Input) int {
	for i, have := range s.inputs {
		if in.Item != 0 && have.Item == in.Item {
			return i
		}
	}
	return -1
}

// replace makes in the only input and returns those it replaced (none
// when in was already the only one).
func (s *refStrip) replace(in Input) (old []Input) {
	if len(s.inputs) == 1 && s.indexOf(in) == 0 {
		return nil // already the one picture here
	}
	old, s.inputs = s.inputs, []Input{in}
	s.update()
	return old
}

// setFirst makes in the first input in place of the one there, the
// other references staying: going on from a turn of a thread.
func (s *refStrip) setFirst(in Input) {
	if len(s.inputs) == 0 {
		s.inputs = []Input{in}
	} else {
		s.inputs = append([]Input{in}, s.inputs[1:]...)
	}
	s.update()
}

// restore puts inputs back (an Undo).
func (s *refStrip) restore(inputs []Input) {
	s.inputs = inputs
	s.update()
}

// moveTo moves input i to place j (clamped to the list), the others
// shifting to make room, and keeps the keys on its grip.
func (s *refStrip) moveTo(i, j int) {
	j = max(0, min(j, len(s.inputs)-1))
	if i == j || i < 0 || i >= len(s.inputs) {
		return
	}
	in := s.inputs[i]
	rest := append(append([]Input{}, s.inputs[:i]...), s.inputs[i+1:]...)
	s.inputs = append(append(append([]Input{}, rest[:j]...), in), rest[j:]...)
	s.refocus = j
	s.update()
}

// remove takes input i out.
func (s *refStrip) remove(i int) {
	s.inputs = append(s.inputs[:i], s.inputs[i+1:]...)
	s.update()
}

// show lays out a tile per input, in order: the tile an input had is
// kept (a second input of the same file gets one of its own), a new
// input gets a new tile, and each is numbered by its place.
func (s *refStrip) show(inputs []Input) {
	spare := s.tiles
	s.tiles = make([]*refTile, 0, len(inputs))
	for _, in := range inputs {
		var t *refTile
		for j, old := range spare {
			if old != nil && old.key == key(&in) {
				t, spare[j] = old, nil
				break
			}
		}
		if t == nil {
			t = s.newTile(in, len(s.tiles))
		}
		s.tiles = append(s.tiles, t)
	}
	s.list.Objects = make([]fyne.CanvasObject, len(s.tiles))
	for i, t := range s.tiles {
		t.place(i, inputs[i], len(inputs))
		s.list.Objects[i] = t.obj
	}
	if n := len(inputs); n > 0 {
		s.count.SetText(catalogue.N("%d image\nis sent", n, n))
	} else {
		s.count.SetText("")
	}
	if f := s.refocus; f >= 0 && f < len(s.tiles) {
		if c := fyne.CurrentApp().Driver().CanvasForObject(s.list); c != nil {
			c.Focus(s.tiles[f].grip)
		}
	}
	s.refocus = -1
	if empty := len(inputs) == 0; s.hint.Hidden == empty {
		s.hint.Hidden = !empty
		s.hint.Refresh()
	}
	// Bars and layout, not every tile: a tile whose place changed has
	// refreshed what changed on it.
	s.scroll.Refresh()
}

// newTile builds in's tile, to be the i-th; place numbers it. Its
// labels are made with their text: set later, each would be shaped and
// truncated once more before the tile was first laid out.
func (s *refStrip) newTile(in Input, i int) *refTile {
	t := &refTile{key: key(&in)}
	t.title = widget.NewLabelWithStyle(tileTitle(i, in), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.title.Truncation = fyne.TextTruncateEllipsis
	t.info = widget.NewLabel(tileInfo(i, in))
	t.info.SizeName = theme.SizeNameCaptionText
	t.info.Truncation = fyne.TextTruncateEllipsis
	// Steady icons: a tile is made for each reference added, and Fyne's
	// themed icons were recoloured and parsed again for each button.
	t.left = iconbutton.Low(catalogue.T("Move this image one place earlier"), kit.SteadyIcon(theme.NavigateBackIcon()), func() { s.moveTo(t.at, t.at-1) })
	t.right = iconbutton.Low(catalogue.T("Move this image one place later"), kit.SteadyIcon(theme.NavigateNextIcon()), func() { s.moveTo(t.at, t.at+1) })
	remove := iconbutton.Low(catalogue.T("Remove this image"), kit.SteadyIcon(theme.DeleteIcon()), func() { s.remove(t.at) })
	pic := picture.New(fyne.NewSize(stripThumb, stripThumb))
	pic.SetImage(in.Thumb)
	lines := container.NewVBox(container.NewBorder(nil, nil, nil, container.NewHBox(t.left, t.right, remove), t.title), t.info)
	t.mark = swatch.New(theme.ColorNameSelection)
	t.mark.Hide()
	// The first is framed: the one the mask is painted on.
	t.frame = swatch.Frame(theme.ColorNamePrimary, 1)
	t.frame.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	tile := container.New(fixedWidth(tileWidth), container.NewStack(t.frame, t.mark, container.NewBorder(nil, nil, pic, nil, lines)))
	// Drag the grip along the strip, or focus it and press Left, Right
	// or Delete: the order is the prompt's "first", "second".
	t.grip = reorder.New(func() float32 { return tile.Size().Width + theme.Padding() }, func(steps int) { s.moveTo(t.at, t.at+steps) })
	t.grip.Horizontal = true
	t.grip.OnDragging = func(steps int) { s.markLanding(t.at, steps) }
	t.grip.OnRemove = func() { s.remove(t.at) }
	t.obj = container.NewBorder(nil, nil, t.grip, nil, tile)
	return t
}

// place numbers the tile as the i-th of n, showing in.
func (t *refTile) place(i int, in Input, n int) {
	t.at = i
	kit.SetText(t.title, tileTitle(i, in))
	kit.SetText(t.info, tileInfo(i, in))
	setEnabled(&t.left.Button, i > 0)
	setEnabled(&t.right.Button, i < n-1)
	if t.frame.Hidden == (i == 0) {
		t.frame.Hidden = i != 0
		t.frame.Refresh()
	}
	if t.mark.Visible() {
		t.mark.Hide()
	}
}

// tileTitle is the i-th tile's title: its place and the file's name.
func tileTitle(i int, in Input) string {
	return catalogue.F("%s · %s", kit.Ordinal(i+1), in.Image.Name)
}

// tileInfo is the line under the i-th tile's title.
func tileInfo(i int, in Input) string {
	about := describe(in)
	if r := roleIndex(in.Role); r > 0 {
		about = catalogue.F("%s · %s", roleNames()[r], about)
	}
	if i == 0 {
		about = catalogue.F("%s · %s", catalogue.T("mask canvas"), about)
	}
	return about
}

// markLanding highlights where the input at i would land, steps places
// away, while its grip is dragged; 0 steps clears it.
func (s *refStrip) markLanding(i, steps int) {
	target := max(0, min(i+steps, len(s.tiles)-1))
	for k, t := range s.tiles {
		show := steps != 0 && k == target
		if t.mark.Visible() != show {
			t.mark.Hidden = !show
			t.mark.Refresh()
		}
	}
}

// scrollToFrom scrolls so the tile at first is at the strip's left (or
// as far as the strip scrolls): several added at once show from their
// first, the one the prompt calls by its number.
func (s *refStrip) scrollToFrom(first int) {
	if first >= len(s.list.Objects) {
		return
	}
	x := float32(0)
	for _, o := range s.list.Objects[:first] {
		x += o.MinSize().Width + theme.Padding()
	}
	end := max(0, s.list.MinSize().Width-s.scroll.Size().Width)
	s.scroll.ScrollToOffset(fyne.NewPos(min(x, end), 0))
}
