package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/api"
)

// chatTab is the Chat tab: saved conversations on the left, the open
// conversation and its composer on the right.
type chatTab struct {
	app           *App
	conversations *widget.List
	model         *modelPicker
	messages      *fyne.Container
	composer      *widget.Entry
	send          *widget.Button
	stop          *widget.Button
	status        *widget.Label
}

func (t *chatTab) buildUI() fyne.CanvasObject {
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

	t.model = t.app.newModelPicker(api.EndpointChat, "Chat model, e.g. gpt-4o-mini", t.app.acct.current.ChatModel)
	header := container.NewBorder(nil, nil, widget.NewLabel("Model"), nil, t.model.obj)

	empty := widget.NewLabelWithStyle("Start a conversation: type below and press Ctrl+Enter.",
		fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	t.messages = container.NewVBox(empty)
	transcript := container.NewVScroll(t.messages)

	t.composer = newPromptEntry("Message — Ctrl+Enter sends")
	t.composer.SetMinRowsVisible(3)
	t.send = &widget.Button{Text: "Send", Icon: theme.MailSendIcon(), Importance: widget.HighImportance, OnTapped: t.primaryAction}
	t.send.Disable()
	t.stop = &widget.Button{Text: "Stop", Icon: theme.MediaStopIcon()}
	t.stop.Disable()
	t.status = hintLabel("Connect a service to chat.")
	t.status.Wrapping, t.status.Truncation = fyne.TextWrapOff, fyne.TextTruncateEllipsis
	actions := container.NewBorder(nil, nil, nil, container.NewHBox(t.stop, t.send), t.status)
	composer := container.NewBorder(nil, actions, nil, nil, t.composer)

	right := container.NewBorder(header, composer, nil, nil, transcript)
	split := container.NewHSplit(left, right)
	split.Offset = 0.24
	return split
}

func (t *chatTab) focusTarget() fyne.Focusable { return t.composer }

func (t *chatTab) primaryAction() {}
