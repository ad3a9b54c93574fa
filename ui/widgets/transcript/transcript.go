// Package transcript is the Chat tab's conversation view: messages drawn
// from markdown (headings, emphasis, lists, quotes, tables, code blocks
// with their own Copy and Use as prompt, links opened only when clicked,
// images never fetched), a folded Thinking section above a reply, each
// message's versions and actions. It is virtualised (a widget.List whose
// rows take each message's measured height), so a conversation of a
// thousand messages opens at once; a streaming reply redraws only itself,
// and the view follows it while it is at the bottom, offering a jump back
// when the user has scrolled up. It knows nothing of the app: the tab
// hands it messages and actions.
package transcript

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
)

// Transcript shows a conversation.
type Transcript struct {
	widget.BaseWidget
	actions Actions
	msgs    []Message
	list    *widget.List
	stack   *fyne.Container
	jump    *widget.Button
	empty   *widget.Label
	// heights are the measured heights of the messages, by index;
	// width is the width they were measured at.
	heights map[int]float32
	width   float32
	// thinkingOpen remembers which Thinking sections the user opened.
	thinkingOpen map[int64]bool
	// follow keeps the view at the bottom as a reply grows.
	follow bool
	// rows are the rows on screen and the index each shows.
	rows map[*messageView]int
	// views and draws count the rows made and the messages drawn, so
	// tests can see that the list is virtual and a stream redraws only
	// its own message.
	views int
	draws map[int64]int
}

// New makes an empty transcript; empty is what it says without messages.
func New(actions Actions, empty string) *Transcript {
	t := &Transcript{actions: actions, heights: map[int]float32{}, thinkingOpen: map[int64]bool{}, follow: true, draws: map[int64]int{}, rows: map[*messageView]int{}}
	t.list = t.newList()
	t.stack = container.NewStack(t.list)
	t.jump = &widget.Button{Text: catalogue.T("Jump to latest"), Icon: theme.MoveDownIcon(), Importance: widget.HighImportance, OnTapped: t.JumpToLatest}
	t.jump.Hide()
	t.empty = widget.NewLabelWithStyle(empty, fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	t.empty.Wrapping = fyne.TextWrapWord
	t.ExtendBaseWidget(t)
	return t
}

// newList is a list of the messages. Rows start at rowHeight and take
// their measured height once drawn; only the rows on screen are drawn.
func (t *Transcript) newList() *widget.List {
	return widget.NewList(
		func() int { return len(t.msgs) },
		func() fyne.CanvasObject { t.views++; return newMessageView(t) },
		func(id widget.ListItemID, o fyne.CanvasObject) { t.update(id, o.(*messageView)) },
	)
}

// SetMessages shows a conversation from its start, at its end.
func (t *Transcript) SetMessages(msgs []Message) {
	t.msgs = append([]Message(nil), msgs...)
	t.heights = map[int]float32{}
	// A new list: the old one's row heights belong to another
	// conversation, and a list cannot forget them.
	t.list = t.newList()
	t.rows = map[*messageView]int{}
	t.stack.Objects = []fyne.CanvasObject{t.list}
	t.stack.Refresh()
	t.empty.Hidden = len(t.msgs) > 0
	t.follow = true
	t.jump.Hide()
	t.scrollToEnd()
}

// Messages is what is shown.
func (t *Transcript) Messages() []Message { return t.msgs }

// Append adds a message at the end.
func (t *Transcript) Append(m Message) {
	following := t.atBottom()
	t.msgs = append(t.msgs, m)
	i := len(t.msgs) - 1
	if i > 0 {
		t.msgs[i-1].Last = false
		t.list.RefreshItem(i - 1)
	}
	t.empty.Hide()
	t.list.Refresh()
	t.afterGrowth(following || m.Role == User)
}

// UpdateLast replaces the last message (a streaming reply's new text):
// only it is drawn again.
func (t *Transcript) UpdateLast(m Message) {
	if len(t.msgs) == 0 {
		t.Append(m)
		return
	}
	following := t.atBottom()
	i := len(t.msgs) - 1
	t.msgs[i] = m
	// Only its own row is drawn again: a list refresh would visit every
	// row on screen twenty times a second.
	for v, row := range t.rows {
		if row == i && v.msg.ID == m.ID {
			t.update(i, v)
		}
	}
	t.afterGrowth(following)
}

// afterGrowth keeps the view at the bottom when it was there, or offers
// the jump back.
func (t *Transcript) afterGrowth(following bool) {
	if following {
		t.follow = true
		t.jump.Hide()
		t.scrollToEnd()
		return
	}
	t.follow = false
	t.jump.Show()
}

// Following reports whether the view follows the end of the conversation.
func (t *Transcript) Following() bool { return t.follow && !t.jump.Visible() }

// JumpToLatest scrolls to the end and follows it again.
func (t *Transcript) JumpToLatest() {
	t.follow = true
	t.jump.Hide()
	t.scrollToEnd()
}

// scrollToEnd shows the end of the conversation. The list learns a row's
// new height as it draws it, which can move the end again: it settles
// in a pass or two (rows already drawn are not drawn again).
func (t *Transcript) scrollToEnd() {
	for range 4 {
		before := t.contentHeight()
		t.list.Refresh()
		t.list.ScrollToBottom()
		if t.contentHeight() == before {
			return
		}
	}
}

// atBottom reports whether the view shows the end of the conversation
// (within a line).
func (t *Transcript) atBottom() bool {
	if len(t.msgs) == 0 {
		return true
	}
	view := t.list.Size().Height
	return t.list.GetScrollOffset() >= t.contentHeight()-view-theme.TextSize()*2
}

// contentHeight is the height of all messages, as the list lays them.
func (t *Transcript) contentHeight() float32 {
	pad := theme.Padding()
	var h float32
	for i := range t.msgs {
		if mh, ok := t.heights[i]; ok {
			h += mh
		} else {
			h += rowHeight
		}
	}
	return h + pad*float32(max(len(t.msgs)-1, 0))
}

// update draws message id into v and measures it at the list's width.
func (t *Transcript) update(id widget.ListItemID, v *messageView) {
	if id < 0 || id >= len(t.msgs) {
		return
	}
	m := t.msgs[id]
	m.Last = id == len(t.msgs)-1
	t.rows[v] = id
	if v.box != nil && same(v.msg, m) {
		return // a list refresh: the row already shows it
	}
	t.draws[m.ID]++
	v.set(m)
	t.measure(id, v)
}

// same reports whether a and b draw alike.
func same(a, b Message) bool {
	return a.ID == b.ID && a.Role == b.Role && a.Text == b.Text && a.Reasoning == b.Reasoning && a.Model == b.Model &&
		a.Streaming == b.Streaming && a.Note == b.Note && a.Failed == b.Failed && a.NoImages == b.NoImages && a.Usage == b.Usage &&
		a.Version == b.Version && a.Versions == b.Versions && a.Last == b.Last && len(a.Images) == len(b.Images)
}

// measure sets a row's height to what its message needs at the list's
// width.
func (t *Transcript) measure(id int, v *messageView) {
	w := t.list.Size().Width - theme.Padding()*2
	if w <= 0 {
		return
	}
	v.Resize(fyne.NewSize(w, v.Size().Height))
	h := v.box.MinSize().Height
	if old, ok := t.heights[id]; ok && math.Abs(float64(old-h)) < 0.5 {
		return
	}
	t.heights[id] = h
	t.list.SetItemHeight(id, h)
}

// remeasure measures the row of v again (a section opened or closed).
func (t *Transcript) remeasure(v *messageView) {
	for i := range t.msgs {
		if t.msgs[i].ID == v.msg.ID {
			delete(t.heights, i)
			t.measure(i, v)
			return
		}
	}
}

// Resize implements fyne.Widget: a new width measures every row again.
func (t *Transcript) Resize(s fyne.Size) {
	if s.Width != t.width {
		t.width = s.Width
		t.heights = map[int]float32{}
	}
	t.BaseWidget.Resize(s)
}

// CreateRenderer implements fyne.Widget.
func (t *Transcript) CreateRenderer() fyne.WidgetRenderer {
	jump := container.NewVBox(layout.NewSpacer(), container.NewHBox(layout.NewSpacer(), t.jump, layout.NewSpacer()))
	return widget.NewSimpleRenderer(container.NewStack(t.stack, container.NewCenter(t.empty), jump))
}
