// Package chat is the Chat tab: the conversations on the left (search,
// new, rename, pin, delete with undo), the open conversation on the
// right (its settings, the transcript, the composer with its images).
// Conversations are kept by internal/conversations in the gallery's
// database; replies stream in goroutines (stream.go), each written before
// it is shown, several conversations at once.
package chat

import (
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
	// conv is the open conversation, its store and what shows it
	// (open.go).
	conv *openChat

	// list is the conversations beside the transcript.
	list *convList

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
	t := &Room{host: h, replies: &replies{host: h, streams: map[int64]*stream{}}}
	t.conv = &openChat{host: h, thumbs: map[string]image.Image{}, replies: t.replies, send: t}
	t.replies.open = t.conv
	return t
}

// Build implements room.Room.
func (t *Room) Build() fyne.CanvasObject {
	list, left := newConvList(t.host, t.conv, t)
	t.list = list

	t.conv.list = list
	title := widget.NewLabelWithStyle(catalogue.T("New chat"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Truncation = fyne.TextTruncateEllipsis
	form, settings := newSettingsForm(t.host, t.conv)
	t.form = form
	export := iconbutton.Low(catalogue.T("Export the conversation…"), theme.DocumentSaveIcon(), t.exportOpen)
	copyAll := iconbutton.Low(catalogue.T("Copy the conversation"), theme.ContentCopyIcon(), func() {
		if c, path := t.conv.current(); c.ID != 0 {
			copyMarkdown(t.host, t.status.SetText, c, path)
		}
	})
	header := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(copyAll, export), title),
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
	t.conv.title, t.conv.transcript, t.conv.form, t.conv.status = title, t.transcript, t.form, t.status
	t.replies.form, t.replies.composer, t.replies.attached = t.form, t.composer, t.attached
	compose := container.NewBorder(t.attached.row, container.NewVBox(actions, t.estimate), nil, nil, t.composer)

	right := container.NewBorder(header, compose, nil, nil, t.transcript)
	split := container.NewHSplit(left, right)
	split.Offset = 0.24

	t.conv.fresh()
	t.conv.openStore()
	return split
}

// Stop ends the open conversation's reply at once, keeping its text.
func (t *Room) Stop() { t.replies.stop(t.conv.conv.ID) }

// useAsPrompt puts a reply's text (or a code block's) into the prompt
// of Text to image or Edit.
func (t *replies) useAsPrompt(text, label string) {
	target := room.TargetGenerate
	if label == catalogue.T("Edit") {
		target = room.TargetEdit
	}
	t.host.UsePrompt(target, text)
}

// exportOpen saves the open conversation as a Markdown file.
func (t *Room) exportOpen() {
	if t.conv.conv.ID == 0 {
		dialog.ShowInformation(catalogue.T("Nothing to export yet"), catalogue.T("Send a message first: a new chat is saved with its first message."), t.host.Window())
		return
	}
	exportMarkdown(t.host, t.conv.conv, t.conv.path)
}

// FocusTarget implements room.Room: the composer.
func (t *Room) FocusTarget() fyne.Focusable { return t.composer }

// ServiceChanged implements room.Room.
func (t *Room) ServiceChanged() {
	if t.status != nil && t.replies.of(t.conv.conv.ID) == nil {
		t.status.SetText(room.ServiceText(t.host))
	}
}

// Connected implements room.Room: a new chat takes the profile's model.
func (t *Room) Connected() {
	if t.conv.conv.ID == 0 && t.form != nil {
		if m := t.host.Service().Current().ChatModel; m != "" {
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
	t.conv.fresh()
	if c := t.host.Window().Canvas(); c != nil {
		c.Focus(t.composer)
	}
}

// Current is the open conversation (ID 0 while new).
func (t *Room) Current() conversations.Conversation { return t.conv.conv }

// Transcript is the open conversation's view.
func (t *Room) Transcript() *transcript.Transcript { return t.transcript }

// Composer is the message field.
func (t *Room) Composer() *composer.Entry { return t.composer }

// Conversations is the list shown.
func (t *Room) Conversations() []conversations.Conversation { return t.list.convs }

// Store is the conversations' store, nil until open.
func (t *Room) Store() *conversations.Store { return t.conv.store }

// StatusText is the line beside Send.
func (t *Room) StatusText() string { return t.status.Text }

// Streaming reports whether the open conversation's reply is streaming.
func (t *Room) Streaming() bool { return t.replies.of(t.conv.conv.ID) != nil }

// showEstimate says under Send what the next message will cost at the
// profile's prices: the conversation so far and the message typed go
// in; the reply's length is not known, so it is a range.
func (t *Room) showEstimate() {
	if t.estimate == nil || t.form == nil {
		return
	}
	t.estimate.SetText(t.form.estimate(t.host.Service().Current(), t.conv.path, t.composer.Text, len(t.attached.items)).String())
}

// Estimate is the line under Send, for tests.
func (t *Room) Estimate() string { return t.estimate.Text }

// syncSend shows Send or Stop for the open conversation.
func (t *Room) syncSend() {
	if t.send == nil {
		return
	}
	streaming := t.replies.of(t.conv.conv.ID) != nil
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

// PrimaryAction implements room.Room: Enter and Send.
func (t *Room) PrimaryAction() {
	text := strings.TrimSpace(t.composer.Text)
	if text == "" && len(t.attached.items) == 0 {
		return
	}
	if t.replies.of(t.conv.conv.ID) != nil {
		t.status.SetText(catalogue.T("A reply is still being written: Stop it (Esc) before sending another message."))
		return
	}
	if t.conv.store == nil {
		if t.conv.storeErr != nil {
			t.status.SetText(t.conv.storeErr.Error())
		}
		return
	}
	if t.host.Service().Client() == nil {
		t.status.SetText(room.ServiceText(t.host))
		return
	}
	modelpick.Confirm(t.host.Window(), t.form.model, func() {
		p := t.host.Service().Current()
		room.GuardEstimate(t.host, p, t.form.estimate(p, t.conv.path, t.composer.Text, len(t.attached.items)), 1, func() { t.replies.sendMessage(t.composer.Text) })
	})
}
