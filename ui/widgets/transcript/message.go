package transcript

import (
	"image"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/markdown"
	"easel/ui/widgets/popmenu"
	"easel/ui/widgets/swatch"
)

// Roles of a message, as the transcript shows them.
const (
	User      = "user"
	Assistant = "assistant"
)

// Message is what the transcript shows of one message.
type Message struct {
	ID   int64
	Role string
	// Text is the message: markdown for a reply, plain for the user's.
	Text string
	// Reasoning is a thinking model's reasoning, shown folded above the
	// reply, never in it.
	Reasoning string
	// Model names who answered.
	Model string
	// Streaming is set while the reply arrives.
	Streaming bool
	// Note says how a reply ended when it is not whole (stopped, cut,
	// failed) and what to do; Failed marks a failure, drawn as one.
	Note   string
	Failed bool
	// NoImages marks a failure because the model takes no images: the
	// message can be sent again without them.
	NoImages bool
	// Heading names a failure as the job cards do ("Out of balance"),
	// above its note; Settings offers Open Settings, for a failure the
	// profile must fix (the key, the balance, access to the model);
	// Again offers to ask again (a failed or cut reply).
	Heading  string
	Settings bool
	Again    bool
	// Usage is the reply's token usage in words, "" when unknown.
	Usage string
	// Images are the thumbnails of the images the message carried.
	Images []image.Image
	// Version and Versions place the message among its versions
	// (regenerated replies, edited questions), from 0.
	Version, Versions int
	// Last marks the last message, which can be regenerated.
	Last bool
}

// Actions are what a message's buttons do; the transcript knows nothing
// of what lies behind them. Each takes the message's id.
type Actions struct {
	Copy       func(text string)
	Delete     func(id int64)
	Regenerate func(id int64)
	Edit       func(id int64)
	// Version shows the version delta places away (-1, +1).
	Version func(id int64, delta int)
	// UseAsPrompt puts text into the tab named target (one of Targets).
	UseAsPrompt func(text, target string)
	Targets     []string
	// Keep offers text to the prompt library.
	Keep func(text string)
	// RetryBare retries a failed reply with only the model and the last
	// question; WithoutImages sends the question again without its
	// images.
	RetryBare     func(id int64)
	WithoutImages func(id int64)
	// Settings opens Settings.
	Settings func()
}

// messageView draws one message: a header with who and the actions, a
// folded Thinking section, the body, the images, and a footer.
type messageView struct {
	widget.BaseWidget
	t        *Transcript
	msg      Message
	bg       *swatch.Swatch
	header   *fyne.Container
	who      *widget.Label
	version  *widget.Label
	prev     *iconbutton.Button
	next     *iconbutton.Button
	copyBtn  *iconbutton.Button
	more     *iconbutton.Button
	think    *widget.Button
	thought  *widget.Label
	thinkUI  *fyne.Container
	body     *fyne.Container
	images   *fyne.Container
	footer   *fyne.Container
	note     *widget.Label
	usage    *widget.Label
	retry    *widget.Button
	again    *widget.Button
	settings *widget.Button
	heading  *widget.Label
	without  *widget.Button
	box      *fyne.Container
	// content holds box once built.
	content *fyne.Container
}

// rowHeight is a row's height before its message is drawn and measured.
const rowHeight = 72

// newMessageView makes an empty row; its parts are made when it first
// shows a message, as the list makes a throwaway row to size its rows
// at every refresh.
func newMessageView(t *Transcript) *messageView {
	v := &messageView{t: t}
	v.ExtendBaseWidget(v)
	return v
}

// build makes the row's parts.
func (v *messageView) build() {
	v.bg = swatch.New(theme.ColorNameInputBackground)
	v.bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	v.who = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.who.Truncation = fyne.TextTruncateEllipsis
	v.version = widget.NewLabel("")
	v.prev = iconbutton.Low(catalogue.T("Earlier version of this reply"), theme.NavigateBackIcon(), func() { v.t.actions.Version(v.msg.ID, -1) })
	v.next = iconbutton.Low(catalogue.T("Later version of this reply"), theme.NavigateNextIcon(), func() { v.t.actions.Version(v.msg.ID, 1) })
	v.copyBtn = iconbutton.Low(catalogue.T("Copy this message"), theme.ContentCopyIcon(), func() { v.t.actions.Copy(v.msg.Text) })
	v.more = iconbutton.Low(catalogue.T("More for this message"), theme.MoreHorizontalIcon(), nil)
	v.more.OnTapped = v.showMenu
	v.header = container.NewBorder(nil, nil, nil, container.NewHBox(v.prev, v.version, v.next, v.copyBtn, v.more), v.who)
	v.thought = widget.NewLabel("")
	v.thought.Wrapping = fyne.TextWrapWord
	v.thought.TextStyle.Italic = true
	// Thinking is folded until asked for: a toggle over the text.
	v.think = &widget.Button{Importance: widget.LowImportance, Alignment: widget.ButtonAlignLeading, OnTapped: func() {
		v.t.thinkingOpen[v.msg.ID] = !v.t.thinkingOpen[v.msg.ID]
		v.showThinking()
		v.t.remeasure(v)
	}}
	v.thinkUI = container.NewVBox(v.think, v.thought)
	v.body = container.NewVBox()
	v.images = container.NewHBox()
	v.note = widget.NewLabel("")
	v.note.Wrapping = fyne.TextWrapWord
	v.usage = widget.NewLabel("")
	v.usage.TextStyle.Italic = true
	v.retry = &widget.Button{Text: catalogue.T("Retry with the last message only"), Icon: theme.ViewRefreshIcon(), OnTapped: func() { v.t.actions.RetryBare(v.msg.ID) }}
	v.without = &widget.Button{Text: catalogue.T("Send again without the images"), Icon: theme.MailSendIcon(), OnTapped: func() { v.t.actions.WithoutImages(v.msg.ID) }}
	v.again = &widget.Button{Text: catalogue.T("Retry"), Icon: theme.ViewRefreshIcon(), Importance: widget.HighImportance, OnTapped: func() { v.t.actions.Regenerate(v.msg.ID) }}
	v.settings = &widget.Button{Text: catalogue.T("Open Settings"), Icon: theme.SettingsIcon(), OnTapped: func() { v.t.actions.Settings() }}
	v.heading = &widget.Label{TextStyle: fyne.TextStyle{Bold: true}, Importance: widget.DangerImportance}
	v.footer = container.NewVBox(v.heading, v.note, container.NewHBox(v.again, v.settings, v.retry, v.without), v.usage)
	v.box = container.NewStack(v.bg, container.NewPadded(container.NewVBox(v.header, v.thinkUI, v.images, v.body, v.footer)))
	if v.content == nil {
		v.content = container.NewVBox()
	}
	v.content.Objects = []fyne.CanvasObject{v.box}
	v.content.Refresh()
}

// set shows m, rebuilding what changed.
func (v *messageView) set(m Message) {
	if v.box == nil {
		v.build()
	}
	same := v.msg.ID == m.ID && v.msg.Text == m.Text && v.msg.Role == m.Role
	v.msg = m
	who := catalogue.T("You")
	if m.Role == Assistant {
		who = catalogue.T("Assistant")
		if m.Model != "" {
			who += " · " + m.Model
		}
		if m.Streaming {
			who += " · writing…"
		}
	}
	v.who.SetText(who)
	v.bg.Hidden = m.Role != User
	multi := m.Versions > 1
	v.prev.Hidden, v.next.Hidden, v.version.Hidden = !multi, !multi, !multi
	if multi {
		v.version.SetText(catalogue.F("%d/%d", m.Version+1, m.Versions))
		setEnabled(&v.prev.Button, m.Version > 0)
		setEnabled(&v.next.Button, m.Version < m.Versions-1)
	}
	v.copyBtn.Hidden = m.Text == ""
	v.more.Hidden = m.Streaming

	v.thinkUI.Hidden = m.Reasoning == ""
	if m.Reasoning != "" {
		v.thought.SetText(m.Reasoning)
		v.showThinking()
	}

	v.images.Objects = nil
	for _, img := range m.Images {
		pic := canvas.NewImageFromImage(img)
		pic.FillMode = canvas.ImageFillContain
		pic.SetMinSize(fyne.NewSize(96, 96))
		v.images.Add(pic)
	}
	v.images.Hidden = len(m.Images) == 0

	if !same || v.body.Objects == nil {
		v.body.Objects = v.renderBody(m)
		v.body.Refresh()
	}

	v.note.SetText(m.Note)
	v.note.Importance = widget.MediumImportance
	if m.Failed {
		v.note.Importance = widget.DangerImportance
	}
	v.note.Hidden = m.Note == ""
	v.retry.Hidden = !m.Failed || v.t.actions.RetryBare == nil
	v.without.Hidden = !m.NoImages || v.t.actions.WithoutImages == nil
	v.again.Hidden = !m.Again || !m.Last || v.t.actions.Regenerate == nil
	v.settings.Hidden = !m.Settings || v.t.actions.Settings == nil
	v.heading.SetText(m.Heading)
	v.heading.Hidden = m.Heading == ""
	if m.Settings && !v.settings.Hidden {
		v.again.Importance = widget.MediumImportance // fix the profile first
	} else {
		v.again.Importance = widget.HighImportance
	}
	for _, b := range []*widget.Button{v.retry, v.without, v.again, v.settings} {
		b.Refresh()
	}
	v.usage.SetText(m.Usage)
	v.usage.Hidden = m.Usage == ""
	v.footer.Hidden = v.note.Hidden && v.usage.Hidden && v.heading.Hidden
	v.footer.Refresh()
	v.header.Refresh()
}

// showThinking folds or unfolds the Thinking section.
func (v *messageView) showThinking() {
	open := v.t.thinkingOpen[v.msg.ID]
	title := catalogue.T("Thinking")
	if v.msg.Streaming && v.msg.Text == "" {
		title = catalogue.T("Thinking…")
	}
	if open {
		v.think.Icon = theme.MenuDropDownIcon()
	} else {
		v.think.Icon = theme.MenuExpandIcon()
	}
	v.think.Text = title
	v.think.Refresh()
	v.thought.Hidden = !open
	v.thought.Refresh()
	v.thinkUI.Refresh()
}

// renderBody is the message's text: a reply as markdown, the user's as
// they wrote it.
func (v *messageView) renderBody(m Message) []fyne.CanvasObject {
	if m.Text == "" {
		if m.Streaming {
			return []fyne.CanvasObject{widget.NewLabelWithStyle("…", fyne.TextAlignLeading, fyne.TextStyle{Italic: true})}
		}
		return nil
	}
	if m.Role == User {
		l := widget.NewLabel(m.Text)
		l.Wrapping = fyne.TextWrapWord
		return []fyne.CanvasObject{l}
	}
	a := blockActions{copyText: v.t.actions.Copy, useAsPrompt: v.useAsPrompt}
	text := m.Text
	if m.Streaming {
		// A table shows once its rows have arrived whole (markdown.Settled).
		if text = markdown.Settled(text); text == "" {
			return []fyne.CanvasObject{widget.NewLabelWithStyle("…", fyne.TextAlignLeading, fyne.TextStyle{Italic: true})}
		}
	}
	return render(markdown.Parse(text), a)
}

// useAsPrompt offers the tabs the text can go to, or sends it to the
// only one.
func (v *messageView) useAsPrompt(text string, anchor fyne.CanvasObject) {
	targets := v.t.actions.Targets
	if len(targets) == 1 {
		v.t.actions.UseAsPrompt(text, targets[0])
		return
	}
	var items []*fyne.MenuItem
	for _, target := range targets {
		items = append(items, fyne.NewMenuItem(catalogue.F("Use as prompt in %s", target), func() { v.t.actions.UseAsPrompt(text, target) }))
	}
	v.popUp(items, anchor)
}

// showMenu offers the message's other actions.
func (v *messageView) showMenu() {
	m := v.msg
	var items []*fyne.MenuItem
	if m.Role == User && v.t.actions.Edit != nil {
		items = append(items, fyne.NewMenuItem(catalogue.T("Edit and send again…"), func() { v.t.actions.Edit(m.ID) }))
	}
	if m.Role == Assistant && m.Last && v.t.actions.Regenerate != nil {
		items = append(items, fyne.NewMenuItem(catalogue.T("Regenerate"), func() { v.t.actions.Regenerate(m.ID) }))
	}
	if m.Role == Assistant && m.Text != "" && v.t.actions.UseAsPrompt != nil {
		for _, target := range v.t.actions.Targets {
			items = append(items, fyne.NewMenuItem(catalogue.F("Use as prompt in %s", target), func() { v.t.actions.UseAsPrompt(m.Text, target) }))
		}
	}
	if m.Role == Assistant && m.Text != "" && v.t.actions.Keep != nil {
		items = append(items, fyne.NewMenuItem(catalogue.T("Keep in prompt library…"), func() { v.t.actions.Keep(m.Text) }))
	}
	if m.Text != "" {
		items = append(items, fyne.NewMenuItem(catalogue.T("Copy"), func() { v.t.actions.Copy(m.Text) }))
	}
	if v.t.actions.Delete != nil {
		del := fyne.NewMenuItem(catalogue.T("Delete"), func() { v.t.actions.Delete(m.ID) })
		del.Icon = theme.DeleteIcon()
		items = append(items, fyne.NewMenuItemSeparator(), del)
	}
	v.popUp(items, v.more)
}

// popUp shows a menu under anchor.
func (v *messageView) popUp(items []*fyne.MenuItem, anchor fyne.CanvasObject) {
	if len(items) == 0 {
		return
	}
	popmenu.ShowBelow(fyne.NewMenu("", items...), anchor)
}

func setEnabled(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// MinSize implements fyne.Widget: an empty row asks for rowHeight.
func (v *messageView) MinSize() fyne.Size {
	if v.box == nil {
		return fyne.NewSize(0, rowHeight)
	}
	return v.BaseWidget.MinSize()
}

// CreateRenderer implements fyne.Widget.
func (v *messageView) CreateRenderer() fyne.WidgetRenderer {
	if v.content == nil {
		v.content = container.NewVBox()
		if v.box != nil {
			v.content.Objects = []fyne.CanvasObject{v.box}
		}
	}
	return widget.NewSimpleRenderer(container.NewVBox(v.content, layout.NewSpacer()))
}
