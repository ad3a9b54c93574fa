// Package chat is the Chat tab: the conversations on the left (search,
// new, rename, pin, delete with undo), the open conversation on the
// right (its settings, the transcript, the composer with its images).
// Conversations are kept by internal/conversations in the gallery's
// database; replies stream in goroutines (stream.go), each written before
// it is shown, several conversations at once.
package chat

import (
	"context"
	"fmt"
	"image"
	"strings"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/internal/catalogue"
	"easel/internal/conversations"
	"easel/internal/imageio"
	"easel/internal/library"
	"easel/internal/markdown"
	"easel/internal/pricing"
	"easel/internal/work"
	"easel/ui/dialogs"
	"easel/ui/kit"
	"easel/ui/modelpick"
	"easel/ui/promptlib"
	"easel/ui/room"
	"easel/ui/widgets/composer"
	"easel/ui/widgets/transcript"
)

// Room is the Chat tab.
type Room struct {
	host Host
	// store is nil until opened (off the UI goroutine), or when the
	// gallery could not be opened; storeErr says why.
	store    *conversations.Store
	storeErr error

	// list is the conversations beside the transcript.
	list *convList

	// current is the open conversation (ID 0: a new one, not yet
	// saved); path its branch shown.
	current conversations.Conversation
	path    []conversations.Message
	title   *widget.Label

	// form is the open conversation's settings.
	form *settingsForm

	transcript *transcript.Transcript
	composer   *composer.Entry
	// attached are the images going with the next message.
	attached *attachments
	send     *widget.Button
	stop     *widget.Button
	status   *widget.Label
	// estimate says under Send what the next message will cost.
	estimate *widget.Label

	// replies sends messages and streams the replies.
	replies *replies
	// thumbs are the thumbnails of images shown, by content hash.
	thumbs map[string]image.Image
}

// attachment is an image waiting in the composer.
type attachment struct {
	name  string
	data  []byte
	thumb image.Image
}

// MaxAttachments is how many images one message carries.
const MaxAttachments = 10

// Host is what Chat asks of the window, and no more: the service and
// whether it can be reached (room.ServiceHost), the model lists, the
// library (where pictures sent are kept), the UI goroutine and the
// window, the clipboard, and the three things it does beyond its tab:
// open Settings, say a request was charged, and put a reply into
// another tab's prompt.
type Host interface {
	room.ServiceHost
	Window() fyne.Window
	// Work starts tasks off the UI goroutine on the window's context,
	// which ends when the window closes.
	Work() work.Starter
	Library() *library.Library
	Models() *modelpick.Registry
	Clipboard() fyne.Clipboard
	ShowSettings()
	SpendChanged()
	UsePrompt(target, text string)
}

// New makes the tab; its widgets are made by Build.
func New(h Host) *Room {
	return &Room{host: h, thumbs: map[string]image.Image{}, replies: &replies{host: h, streams: map[int64]*stream{}}}
}

// Build implements room.Room.
func (t *Room) Build() fyne.CanvasObject {
	list, left := newConvList(t.host, convAccess{
		store:    func() *conversations.Store { return t.store },
		current:  func() int64 { return t.current.ID },
		open:     t.open,
		restored: func(id int64) { t.load(id, nil) },
		deleted: func(id int64) {
			t.replies.cancel(id)
			if t.current.ID == id {
				t.newChat()
			}
		},
		write:   t.write,
		newChat: t.NewChat,
		say:     func(s string) { t.status.SetText(s) },
	})
	t.list = list

	t.title = widget.NewLabelWithStyle(catalogue.T("New chat"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.title.Truncation = fyne.TextTruncateEllipsis
	form, settings := newSettingsForm(t.host, func() *conversations.Store { return t.store })
	t.form = form
	export := iconbutton.Low(catalogue.T("Export the conversation…"), theme.DocumentSaveIcon(), t.exportOpen)
	copyAll := iconbutton.Low(catalogue.T("Copy the conversation"), theme.ContentCopyIcon(), func() {
		if t.current.ID != 0 {
			copyMarkdown(t.host, t.status.SetText, t.current, t.path)
		}
	})
	header := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(copyAll, export), t.title),
		container.NewBorder(nil, nil, widget.NewLabel(catalogue.T("Model")), nil, t.form.model.Object),
		settings)

	t.transcript = transcript.New(transcript.Actions{
		Copy:        func(s string) { t.host.Clipboard().SetContent(s) },
		Delete:      t.replies.deleteMessage,
		Regenerate:  t.replies.regenerate,
		Edit:        t.replies.editMessage,
		Version:     t.replies.showVersion,
		UseAsPrompt: t.replies.useAsPrompt,
		Keep: func(s string) {
			promptlib.Keep(t.host, markdown.Text(markdown.Parse(s)), catalogue.T("a chat reply"), nil)
		},
		Targets:       []string{catalogue.T("Text to image"), catalogue.T("Edit")},
		RetryBare:     func(id int64) { t.replies.retry(id, retryBare) },
		WithoutImages: func(id int64) { t.replies.retry(id, retryWithoutImages) },
		Settings:      t.host.ShowSettings,
	}, catalogue.T("Start a conversation: type below and press Enter. Drop images here to ask about them."))

	t.composer = composer.New(catalogue.T("Message — Enter sends, Shift+Enter adds a line"))
	t.composer.SetMinRowsVisible(3)
	t.composer.OnSend = t.PrimaryAction
	t.composer.OnStop = t.Stop
	t.send = &widget.Button{Text: catalogue.T("Send"), Icon: theme.MailSendIcon(), Importance: widget.HighImportance, OnTapped: t.PrimaryAction}
	t.stop = &widget.Button{Text: catalogue.T("Stop"), Icon: theme.MediaStopIcon(), OnTapped: t.Stop}
	t.stop.Hide()
	t.attached = newAttachments(t.host, t.showEstimate, func() { t.host.Window().Canvas().Focus(t.composer) })
	attach := &widget.Button{Text: catalogue.T("Images…"), Icon: theme.FileImageIcon(), OnTapped: func() {
		dialogs.PickImages(t.host, catalogue.T("Attach images"), catalogue.T("Attach"), t.attached.addFiles)
	}}
	t.status = kit.HintLabel(room.ServiceText(t.host))
	t.status.Wrapping, t.status.Truncation = fyne.TextWrapOff, fyne.TextTruncateEllipsis
	actions := container.NewBorder(nil, nil, attach, container.NewHBox(t.stop, t.send), t.status)
	t.estimate = kit.HintLabel("")
	t.estimate.Wrapping, t.estimate.Truncation, t.estimate.Alignment = fyne.TextWrapOff, fyne.TextTruncateEllipsis, fyne.TextAlignTrailing
	t.composer.OnChanged = func(string) { t.showEstimate() }
	prevModel := t.form.model.OnChanged
	t.form.model.OnChanged = func(m string) {
		if prevModel != nil {
			prevModel(m)
		}
		t.showEstimate()
	}
	t.wireReplies()
	compose := container.NewBorder(t.attached.row, container.NewVBox(actions, t.estimate), nil, nil, t.composer)

	right := container.NewBorder(header, compose, nil, nil, t.transcript)
	split := container.NewHSplit(left, right)
	split.Offset = 0.24

	t.newChat()
	t.openStore()
	return split
}

// wireReplies gives the replies the form, the composer, the images
// waiting and what they ask of the conversation on screen.
func (t *Room) wireReplies() {
	r := t.replies
	r.form, r.composer, r.attached = t.form, t.composer, t.attached
	r.open = openAccess{
		current:    func() (conversations.Conversation, []conversations.Message) { return t.current, t.path },
		setCurrent: func(c conversations.Conversation) { t.current = c },
		showSent: func(leaf int64, history []conversations.Message, reply conversations.Message) {
			t.current.Leaf, t.path = leaf, history
			t.showPath()
			t.transcript.Append(view(reply, t.host.Session().Current().Prices, t.thumbs))
		},
		showReply: func(m conversations.Message) {
			t.transcript.UpdateLast(view(m, t.host.Session().Current().Prices, t.thumbs))
		},
		keepThumb:    func(hash string, img image.Image) { t.thumbs[hash] = img },
		store:        func() *conversations.Store { return t.store },
		reload:       t.reload,
		relist:       func() { t.list.reloadList() },
		write:        t.write,
		saveSettings: t.saveSettings,
		streaming:    t.syncSend,
		say:          func(s string) { t.status.SetText(s) },
	}
}

// Stop ends the open conversation's reply at once, keeping its text.
func (t *Room) Stop() { t.replies.stop(t.current.ID) }

// useAsPrompt puts a reply's text (or a code block's) into the prompt
// of Text to image or Edit.
func (t *replies) useAsPrompt(text, label string) {
	target := room.TargetGenerate
	if label == catalogue.T("Edit") {
		target = room.TargetEdit
	}
	t.host.UsePrompt(target, text)
}

// openStore opens the conversations off the UI goroutine and lists them.
func (t *Room) openStore() {
	lib := t.host.Library()
	if lib == nil {
		t.storeErr = fmt.Errorf(catalogue.T("the gallery could not be opened, and conversations are kept with it: %v"), t.host.LibraryErr())
		t.status.SetText(t.storeErr.Error())
		return
	}
	work.Load(t.host.Work(), func(ctx context.Context) (*conversations.Store, error) { return conversations.Open(ctx, lib) }, func(s *conversations.Store, err error) {
		t.store, t.storeErr = s, err
		if err != nil {
			t.status.SetText(err.Error())
			return
		}
		t.list.reloadList()
	})
}

// exportOpen saves the open conversation as a Markdown file.
func (t *Room) exportOpen() {
	if t.current.ID == 0 {
		dialog.ShowInformation(catalogue.T("Nothing to export yet"), catalogue.T("Send a message first: a new chat is saved with its first message."), t.host.Window())
		return
	}
	exportMarkdown(t.host, t.current, t.path)
}

// FocusTarget implements room.Room: the composer.
func (t *Room) FocusTarget() fyne.Focusable { return t.composer }

// ServiceChanged implements room.Room.
func (t *Room) ServiceChanged() {
	if t.status != nil && t.replies.of(t.current.ID) == nil {
		t.status.SetText(room.ServiceText(t.host))
	}
}

// Connected implements room.Room: a new chat takes the profile's model.
func (t *Room) Connected() {
	if t.current.ID == 0 && t.form != nil {
		if m := t.host.Session().Current().ChatModel; m != "" {
			t.form.model.SetText(m)
		}
	}
	t.ServiceChanged()
}

// NewChat starts a new conversation (Ctrl+N): saved once its first
// message is sent.
func (t *Room) NewChat() {
	if t.list != nil && t.list.search.Text != "" {
		t.list.search.SetText("") // a search left on would hide the new chat once sent
	}
	t.newChat()
	if c := t.host.Window().Canvas(); c != nil {
		c.Focus(t.composer)
	}
}

func (t *Room) newChat() {
	t.current = conversations.Conversation{Title: catalogue.T("New chat"), Model: t.host.Session().Current().ChatModel}
	if t.current.Model == "" {
		t.current.Model = "gpt-4o-mini"
	}
	t.path = nil
	t.form.show(t.current)
	t.title.SetText(catalogue.T("New chat"))
	t.transcript.SetMessages(nil)
	if t.list != nil {
		t.list.list.UnselectAll()
	}
	t.syncSend()
}

// Current is the open conversation (ID 0 while new).
func (t *Room) Current() conversations.Conversation { return t.current }

// Transcript is the open conversation's view.
func (t *Room) Transcript() *transcript.Transcript { return t.transcript }

// Composer is the message field.
func (t *Room) Composer() *composer.Entry { return t.composer }

// Conversations is the list shown.
func (t *Room) Conversations() []conversations.Conversation { return t.list.convs }

// Store is the conversations' store, nil until open.
func (t *Room) Store() *conversations.Store { return t.store }

// StatusText is the line beside Send.
func (t *Room) StatusText() string { return t.status.Text }

// Streaming reports whether the open conversation's reply is streaming.
func (t *Room) Streaming() bool { return t.replies.of(t.current.ID) != nil }

// showEstimate says under Send what the next message will cost at the
// profile's prices: the conversation so far and the message typed go
// in; the reply's length is not known, so it is a range.
func (t *Room) showEstimate() {
	if t.estimate == nil || t.form == nil {
		return
	}
	t.estimate.SetText(t.form.estimate(t.host.Session().Current(), t.path, t.composer.Text, len(t.attached.items)).String())
}

// Estimate is the line under Send, for tests.
func (t *Room) Estimate() string { return t.estimate.Text }

// syncSend shows Send or Stop for the open conversation.
func (t *Room) syncSend() {
	if t.send == nil {
		return
	}
	streaming := t.replies.of(t.current.ID) != nil
	t.send.Hidden, t.stop.Hidden = streaming, !streaming
	t.send.Refresh()
	t.stop.Refresh()
}

// view is a message as the transcript shows it, its cost at prices and
// its images' thumbnails from thumbs.
func view(m conversations.Message, prices pricing.Table, thumbs map[string]image.Image) transcript.Message {
	v := transcript.Message{ID: m.ID, Role: m.Role, Text: m.Content, Reasoning: m.Reasoning, Model: m.Model,
		Version: m.Version, Versions: m.Versions, Streaming: m.State == conversations.Streaming}
	if m.OutputTokens > 0 {
		v.Usage = catalogue.F("%d tokens in, %d out", m.InputTokens, m.OutputTokens)
		if cost, ok := prices.Cost(pricing.Billed{Model: m.Model, Usage: &api.Usage{InputTokens: m.InputTokens, OutputTokens: m.OutputTokens}}); ok {
			v.Usage += " · " + prices.Money(cost).String()
		}
	}
	switch m.State {
	case conversations.Stopped:
		v.Note = "Stopped: the text that had arrived is kept."
	case conversations.Cut:
		v.Heading = catalogue.T("Cut short")
		v.Note = m.ErrorText
		v.Again = true
	case conversations.Failed:
		v.Note, v.Failed = m.ErrorText, true
		kind, known := api.KindOf(m.ErrorKind)
		v.NoImages = known && kind == api.KindNoImages
		v.Heading = catalogue.T("The reply failed")
		if known {
			v.Heading = kind.Title()
		}
		v.Again = true
		switch {
		case !known:
		case kind == api.KindAuth, kind == api.KindInsufficientBalance, kind == api.KindNoAccess:
			v.Settings = true
		}
	}
	for _, img := range m.Images {
		if th := thumbs[img.Hash]; th != nil {
			v.Images = append(v.Images, th)
		}
	}
	return v
}

// showPath draws the open conversation's branch.
func (t *Room) showPath() {
	t.showEstimate()
	msgs := make([]transcript.Message, len(t.path))
	prices := t.host.Session().Current().Prices
	for i, m := range t.path {
		msgs[i] = view(m, prices, t.thumbs)
	}
	t.transcript.SetMessages(msgs)
}

// open shows conversation id, read off the UI goroutine.
func (t *Room) open(id int64) {
	if t.store == nil {
		return
	}
	t.saveSettings()
	t.load(id, nil)
}

// load reads conversation id and its branch (with the thumbnails of its
// images) off the UI goroutine, then shows it, and calls then.
func (t *Room) load(id int64, then func()) {
	store, lib := t.store, t.host.Library()
	thumbs := map[string]image.Image{} // filled by the load, read once it is shown
	work.Load(t.host.Work(), func(ctx context.Context) (branch, error) {
		b, err := readConversation(ctx, store, id)
		for _, m := range b.path {
			for _, img := range m.Images {
				if _, ok := thumbs[img.Hash]; !ok {
					thumbs[img.Hash], _ = imageio.DecodeFileFit(lib.Inputs().Path(img.StoredInput), 192)
				}
			}
		}
		return b, err
	}, func(b branch, err error) {
		if err != nil {
			dialog.ShowError(fmt.Errorf(catalogue.T("cannot open the conversation: %w"), err), t.host.Window())
			return
		}
		for k, v := range thumbs {
			t.thumbs[k] = v
		}
		t.current, t.path = b.conv, b.path
		t.title.SetText(b.conv.Title)
		t.form.show(t.current)
		t.showPath()
		t.syncSend()
		if s := t.replies.of(id); s != nil {
			s.showNow()
		} else {
			t.status.SetText(room.ServiceText(t.host))
		}
		if then != nil {
			then()
		}
	})
}

// reload reads the open conversation again (after a change).
func (t *Room) reload() {
	if t.current.ID != 0 {
		t.load(t.current.ID, nil)
	}
	t.list.reloadList()
}

// write runs a change to the store off the UI goroutine, then reloads.
func (t *Room) write(f func(context.Context) error) {
	if t.store == nil {
		return
	}
	work.Run(t.host.Work(), func(ctx context.Context) error { return f(ctx) }, func(err error) {
		if err != nil {
			dialog.ShowError(err, t.host.Window())
		}
		t.reload()
	})
}

// PrimaryAction implements room.Room: Enter and Send.
func (t *Room) PrimaryAction() {
	text := strings.TrimSpace(t.composer.Text)
	if text == "" && len(t.attached.items) == 0 {
		return
	}
	if t.replies.of(t.current.ID) != nil {
		t.status.SetText(catalogue.T("A reply is still being written: Stop it (Esc) before sending another message."))
		return
	}
	if t.store == nil {
		if t.storeErr != nil {
			t.status.SetText(t.storeErr.Error())
		}
		return
	}
	if t.host.Session().Client() == nil {
		t.status.SetText(room.ServiceText(t.host))
		return
	}
	modelpick.Confirm(t.host.Window(), t.form.model, func() {
		p := t.host.Session().Current()
		room.GuardEstimate(t.host, p, t.form.estimate(p, t.path, t.composer.Text, len(t.attached.items)), 1, func() { t.replies.sendMessage(t.composer.Text) })
	})
}

// saveSettings keeps the form's values with the open conversation when
// they changed.
func (t *Room) saveSettings() {
	c, err := t.form.read(t.current)
	if err != nil || t.current.ID == 0 || sameSettings(c, t.current) {
		return
	}
	t.current = c
	store := t.store
	// The user's choice is written even as the window closes.
	work.Run(t.host.Work(), func(ctx context.Context) error { return store.SetSettings(context.WithoutCancel(ctx), c) }, nil)
}
