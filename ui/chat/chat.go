// Package chat is the Chat tab: saved conversations on the left, the open
// conversation and its composer on the right. Sending, streaming and
// keeping conversations are still to come (the Chat issue); today the
// tab holds the chat model's picker, fed by the connected service.
package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
	"easel/ui/kit"
	"easel/ui/modelpick"
	"easel/ui/room"
)

// Room is the Chat tab.
type Room struct {
	host          room.Host
	conversations *widget.List
	model         *modelpick.Picker
	messages      *fyne.Container
	composer      *widget.Entry
	send          *widget.Button
	stop          *widget.Button
	status        *widget.Label
}

// New makes the tab; its widgets are made by Build.
func New(h room.Host) *Room { return &Room{host: h} }

// Build implements room.Room.
func (t *Room) Build() fyne.CanvasObject {
	t.conversations = widget.NewList(
		func() int { return 0 },
		func() fyne.CanvasObject { return widget.NewLabel("conversation") },
		func(widget.ListItemID, fyne.CanvasObject) {},
	)
	newChat := &widget.Button{Text: "New chat", Icon: theme.ContentAddIcon()}
	newChat.Disable()
	search := &widget.Entry{PlaceHolder: "Search conversations"}
	search.Disable()
	left := container.NewBorder(container.NewVBox(newChat, search), nil, nil, nil, t.conversations)

	t.model = t.host.Models().New(api.EndpointChat, "Chat model, e.g. gpt-4o-mini", t.host.Session().Current().ChatModel)
	header := container.NewBorder(nil, nil, widget.NewLabel("Model"), nil, t.model.Object)

	empty := widget.NewLabelWithStyle("Start a conversation: type below and press Ctrl+Enter.",
		fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	t.messages = container.NewVBox(empty)
	transcript := container.NewVScroll(t.messages)

	t.composer = kit.PromptEntry("Message — Ctrl+Enter sends")
	t.composer.SetMinRowsVisible(3)
	t.send = &widget.Button{Text: "Send", Icon: theme.MailSendIcon(), Importance: widget.HighImportance, OnTapped: t.PrimaryAction}
	t.send.Disable()
	t.stop = &widget.Button{Text: "Stop", Icon: theme.MediaStopIcon()}
	t.stop.Disable()
	t.status = kit.HintLabel("Chat in the window is coming; `easel chat` streams replies today.")
	t.status.Wrapping, t.status.Truncation = fyne.TextWrapOff, fyne.TextTruncateEllipsis
	actions := container.NewBorder(nil, nil, nil, container.NewHBox(t.stop, t.send), t.status)
	composer := container.NewBorder(nil, actions, nil, nil, t.composer)

	right := container.NewBorder(header, composer, nil, nil, transcript)
	split := container.NewHSplit(left, right)
	split.Offset = 0.24
	return split
}

// FocusTarget implements room.Room: the composer.
func (t *Room) FocusTarget() fyne.Focusable { return t.composer }

// PrimaryAction implements room.Room; sending comes with the Chat issue.
func (t *Room) PrimaryAction() {}

// ServiceChanged implements room.Room.
func (t *Room) ServiceChanged() {}

// Connected implements room.Room: the profile's chat model goes into the
// picker.
func (t *Room) Connected() {
	if m := t.host.Session().Current().ChatModel; m != "" {
		t.model.SetText(m)
	}
}
