package chat

import (
	"context"
	"fmt"

	"easel/ui/widgets/iconbutton"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"easel/internal/catalogue"
	"easel/internal/conversations"
	"easel/internal/work"
	"easel/ui/dialogs"
	"easel/ui/kit"
	"easel/ui/widgets/popmenu"
)

// convList is the list of conversations beside the transcript: it is
// searched, and each row's menu renames, pins, deletes (with Undo),
// exports and copies its conversation. It owns the list and its search;
// it reads and changes the open conversation through its part, and asks
// the room for a new chat.
type convList struct {
	host Host
	conv *openChat
	room interface{ NewChat() }

	convs    []conversations.Conversation
	list     *widget.List
	search   *widget.Entry
	noMatch  *widget.Label
	undoBar  *fyne.Container
	undoText *widget.Label
	deleted  int64
}

// newConvList makes the left side: New chat, the search, the list of
// conversations (pinned first, then newest), and the bar that undoes a
// delete.
func newConvList(h Host, conv *openChat, room interface{ NewChat() }) (*convList, fyne.CanvasObject) {
	t := &convList{host: h, conv: conv, room: room}
	newChat := &widget.Button{Text: catalogue.T("New chat (Ctrl+N)"), Icon: theme.ContentAddIcon(), OnTapped: room.NewChat}
	t.search = widget.NewEntry()
	t.search.SetPlaceHolder(catalogue.T("Search conversations"))
	t.search.OnChanged = func(string) { t.reloadList() }
	t.list = widget.NewList(
		func() int { return len(t.convs) },
		func() fyne.CanvasObject {
			pin := widget.NewIcon(theme.RadioButtonCheckedIcon())
			title := widget.NewLabel("")
			title.Truncation = fyne.TextTruncateEllipsis
			more := iconbutton.Low(catalogue.T("More for this conversation"), theme.MoreVerticalIcon(), nil)
			return container.NewBorder(nil, nil, pin, more, title)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(t.convs) {
				return
			}
			c := t.convs[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Label).SetText(c.Title)
			row.Objects[1].(*widget.Icon).Hidden = !c.Pinned
			more := row.Objects[2].(*iconbutton.Button)
			more.OnTapped = func() { t.conversationMenu(c, more) }
		},
	)
	t.list.OnSelected = func(i widget.ListItemID) {
		if i < len(t.convs) && t.convs[i].ID != conv.conv.ID {
			conv.open(t.convs[i].ID)
		}
	}
	t.undoText = widget.NewLabel("")
	t.undoText.Wrapping = fyne.TextWrapWord
	undo := &widget.Button{Text: catalogue.T("Undo"), Icon: theme.ContentUndoIcon(), OnTapped: t.undoDelete}
	t.undoBar = container.NewBorder(nil, nil, nil, undo, t.undoText)
	t.undoBar.Hide()
	t.noMatch = kit.HintLabel("")
	t.noMatch.Hide()
	return t, container.NewBorder(container.NewVBox(newChat, t.search, t.noMatch), t.undoBar, nil, nil, t.list)
}

// reloadList reads the conversations (those matching the search) off the
// UI goroutine.
func (t *convList) reloadList() {
	store, q := t.conv.Store(), t.search.Text
	if store == nil {
		return
	}
	work.Load(t.host.Work(), func(ctx context.Context) ([]conversations.Conversation, error) { return store.List(ctx, q) }, func(convs []conversations.Conversation, err error) {
		if q != t.search.Text {
			return // typed on since
		}
		if err != nil {
			t.conv.say(err.Error())
			return
		}
		t.convs = convs
		t.noMatch.Hidden = q == "" || len(convs) > 0
		t.noMatch.SetText(catalogue.F("No conversation holds “%s”.", q))
		t.list.Refresh()
		t.list.UnselectAll()
		for i, c := range convs {
			if c.ID == t.conv.conv.ID {
				t.list.Select(i)
			}
		}
	})
}

// conversationMenu offers Rename, Pin, Export, Copy and Delete for c.
func (t *convList) conversationMenu(c conversations.Conversation, at fyne.CanvasObject) {
	pin := catalogue.T("Pin to the top")
	if c.Pinned {
		pin = catalogue.T("Unpin")
	}
	del := fyne.NewMenuItem(catalogue.T("Delete"), func() { t.deleteConversation(c) })
	del.Icon = theme.DeleteIcon()
	menu := fyne.NewMenu("",
		fyne.NewMenuItem(catalogue.T("Rename…"), func() { t.rename(c) }),
		fyne.NewMenuItem(pin, func() {
			store := t.conv.Store()
			t.conv.write(func(ctx context.Context) error { return store.SetPinned(ctx, c.ID, !c.Pinned) })
		}),
		fyne.NewMenuItem(catalogue.T("Export as Markdown…"), func() {
			t.fetch(c.ID, func(c conversations.Conversation, path []conversations.Message) { exportMarkdown(t.host, c, path) })
		}),
		fyne.NewMenuItem(catalogue.T("Copy conversation"), func() {
			t.fetch(c.ID, func(c conversations.Conversation, path []conversations.Message) {
				copyMarkdown(t.host, t.conv.say, c, path)
			})
		}),
		fyne.NewMenuItemSeparator(), del)
	popmenu.ShowBelow(menu, at)
}

// rename asks for a conversation's new title.
func (t *convList) rename(c conversations.Conversation) {
	e := kit.NewDialogEntry()
	e.SetText(c.Title)
	d := dialog.NewForm(catalogue.T("Rename conversation"), catalogue.T("Rename"), catalogue.T("Cancel"), []*widget.FormItem{widget.NewFormItem(catalogue.T("Title"), e)}, func(ok bool) {
		if store, title := t.conv.Store(), e.Text; ok && title != "" {
			t.conv.write(func(ctx context.Context) error { return store.Rename(ctx, c.ID, title) })
		}
	}, t.host.Window())
	kit.AnswerKeys(d, e)
	d.Resize(fyne.NewSize(460, d.MinSize().Height))
	d.Show()
	t.host.Window().Canvas().Focus(e)
}

// deleteConversation deletes c at once; Undo brings it back until Easel
// closes.
func (t *convList) deleteConversation(c conversations.Conversation) {
	// No question first: Undo below the list brings it back until Easel
	// closes, and one safeguard is enough.
	store := t.conv.Store()
	t.conv.deleted(c.ID)
	t.conv.write(func(ctx context.Context) error { return store.Delete(ctx, c.ID) })
	t.deleted = c.ID
	t.undoText.SetText(catalogue.F("Deleted “%s”.", c.Title))
	t.undoBar.Show()
}

// undoDelete brings the last deleted conversation back and opens it.
func (t *convList) undoDelete() {
	id := t.deleted
	if id == 0 {
		return
	}
	t.deleted = 0
	t.undoBar.Hide()
	store := t.conv.Store()
	t.conv.write(func(ctx context.Context) error { return store.Restore(ctx, id) })
	t.conv.restored(id)
}

// exportMarkdown asks where to save conversation c, whose shown branch
// is path, as Markdown.
func exportMarkdown(h Host, c conversations.Conversation, path []conversations.Message) {
	dialogs.SaveFile(h, catalogue.T("Export conversation"), fileName(c.Title)+".md", catalogue.T("conversation"), []byte(conversations.Markdown(c, path)))
}

// fetch reads conversation id and its shown branch off the UI goroutine
// for then, without opening it: a list row's Export or Copy leaves the
// conversation on screen (and the list's highlight) where they were.
func (t *convList) fetch(id int64, then func(conversations.Conversation, []conversations.Message)) {
	store := t.conv.Store()
	work.Load(t.host.Work(), func(ctx context.Context) (branch, error) { return readConversation(ctx, store, id) }, func(b branch, err error) {
		if err != nil {
			dialog.ShowError(fmt.Errorf(catalogue.T("cannot open the conversation: %w"), err), t.host.Window())
			return
		}
		then(b.conv, b.path)
	})
}

// copyMarkdown puts conversation c, whose shown branch is path, on the
// clipboard as Markdown, and says so.
func copyMarkdown(h Host, say func(string), c conversations.Conversation, path []conversations.Message) {
	h.Clipboard().SetContent(conversations.Markdown(c, path))
	say(catalogue.T("The conversation is on the clipboard, as Markdown."))
}

// readConversation reads conversation id and the branch it shows.
func readConversation(ctx context.Context, store *conversations.Store, id int64) (branch, error) {
	c, err := store.Get(ctx, id)
	if err != nil {
		return branch{conv: c}, err
	}
	path, err := store.Path(ctx, id)
	return branch{conv: c, path: path}, err
}

// branch is a conversation and the branch of it that is shown, read
// together.
type branch struct {
	conv conversations.Conversation
	path []conversations.Message
}
